;; The first pass of the vector search (src/queries/vector-index.ts): each passage's 32 coarse coordinates times the
;; query's, four lanes at a time (WebAssembly SIMD), where JavaScript does one multiply at a time.
(module
  (import "env" "memory" (memory 1))
  ;; out[r] = coarse[r] · q for `rows` rows of 32 floats from `coarse`; `q` holds 32 floats. Byte addresses.
  (func (export "scores") (param $coarse i32) (param $q i32) (param $rows i32) (param $out i32)
    (local $q0 v128) (local $q1 v128) (local $q2 v128) (local $q3 v128)
    (local $q4 v128) (local $q5 v128) (local $q6 v128) (local $q7 v128)
    (local $s v128) (local $t v128) (local $end i32)
    (local.set $q0 (v128.load offset=0 (local.get $q)))
    (local.set $q1 (v128.load offset=16 (local.get $q)))
    (local.set $q2 (v128.load offset=32 (local.get $q)))
    (local.set $q3 (v128.load offset=48 (local.get $q)))
    (local.set $q4 (v128.load offset=64 (local.get $q)))
    (local.set $q5 (v128.load offset=80 (local.get $q)))
    (local.set $q6 (v128.load offset=96 (local.get $q)))
    (local.set $q7 (v128.load offset=112 (local.get $q)))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $rows) (i32.const 2))))
    (block $done
      (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
      (loop $row
        (local.set $s (f32x4.mul (v128.load offset=0 (local.get $coarse)) (local.get $q0)))
        (local.set $t (f32x4.mul (v128.load offset=16 (local.get $coarse)) (local.get $q1)))
        (local.set $s (f32x4.add (local.get $s) (f32x4.mul (v128.load offset=32 (local.get $coarse)) (local.get $q2))))
        (local.set $t (f32x4.add (local.get $t) (f32x4.mul (v128.load offset=48 (local.get $coarse)) (local.get $q3))))
        (local.set $s (f32x4.add (local.get $s) (f32x4.mul (v128.load offset=64 (local.get $coarse)) (local.get $q4))))
        (local.set $t (f32x4.add (local.get $t) (f32x4.mul (v128.load offset=80 (local.get $coarse)) (local.get $q5))))
        (local.set $s (f32x4.add (local.get $s) (f32x4.mul (v128.load offset=96 (local.get $coarse)) (local.get $q6))))
        (local.set $t (f32x4.add (local.get $t) (f32x4.mul (v128.load offset=112 (local.get $coarse)) (local.get $q7))))
        (local.set $s (f32x4.add (local.get $s) (local.get $t)))
        (f32.store (local.get $out)
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $s)) (f32x4.extract_lane 1 (local.get $s)))
            (f32.add (f32x4.extract_lane 2 (local.get $s)) (f32x4.extract_lane 3 (local.get $s)))))
        (local.set $coarse (i32.add (local.get $coarse) (i32.const 128)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br_if $row (i32.lt_u (local.get $out) (local.get $end)))))))
