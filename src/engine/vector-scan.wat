;; The two scans of the vector search (src/queries/vector-index.ts) in WebAssembly SIMD, where JavaScript does one
;; multiply at a time: the first pass over the passages' 32 coarse coordinates, four lanes at a time, and a page's
;; exact similarity, two lanes at a time in double precision, the same sums in the same order as the JavaScript dot
;; product it replaces (so the similarities, and the answers, are the same to the bit).
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
        (br_if $row (i32.lt_u (local.get $out) (local.get $end))))))
  ;; The largest of the `rows` rows of `dim` floats from `v` times `q` (`dim` doubles, 16-byte aligned): per row,
  ;; a = Σ v[j]·q[j] for j ≡ 0 (mod 4) and the tail beyond the last multiple of 4, b, c, d for j ≡ 1, 2, 3, and
  ;; ((a + b) + c) + d, each product and sum in double precision.
  (func (export "best") (param $v i32) (param $rows i32) (param $dim i32) (param $q i32) (result f64)
    (local $best f64) (local $ab v128) (local $cd v128) (local $a f64) (local $p i32) (local $qp i32)
    (local $quads i32) (local $end i32) (local $rowEnd i32)
    (local.set $best (f64.const -inf))
    (local.set $quads (i32.shl (i32.shr_u (local.get $dim) (i32.const 2)) (i32.const 4)))
    (block $done
      (br_if $done (i32.eqz (local.get $rows)))
      (loop $row
        (local.set $ab (v128.const i64x2 0 0))
        (local.set $cd (v128.const i64x2 0 0))
        (local.set $p (local.get $v))
        (local.set $qp (local.get $q))
        (local.set $end (i32.add (local.get $v) (local.get $quads)))
        (local.set $rowEnd (i32.add (local.get $v) (i32.shl (local.get $dim) (i32.const 2))))
        (block $quadsDone
          (br_if $quadsDone (i32.ge_u (local.get $p) (local.get $end)))
          (loop $quad
            (local.set $ab (f64x2.add (local.get $ab)
              (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero offset=0 (local.get $p))) (v128.load offset=0 (local.get $qp)))))
            (local.set $cd (f64x2.add (local.get $cd)
              (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (local.get $p))) (v128.load offset=16 (local.get $qp)))))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (local.set $qp (i32.add (local.get $qp) (i32.const 32)))
            (br_if $quad (i32.lt_u (local.get $p) (local.get $end)))))
        (local.set $a (f64x2.extract_lane 0 (local.get $ab)))
        (block $tailDone
          (br_if $tailDone (i32.ge_u (local.get $p) (local.get $rowEnd)))
          (loop $tail
            (local.set $a (f64.add (local.get $a) (f64.mul (f64.promote_f32 (f32.load (local.get $p))) (f64.load (local.get $qp)))))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (local.set $qp (i32.add (local.get $qp) (i32.const 8)))
            (br_if $tail (i32.lt_u (local.get $p) (local.get $rowEnd)))))
        (local.set $best (f64.max (local.get $best)
          (f64.add (f64.add (f64.add (local.get $a) (f64x2.extract_lane 1 (local.get $ab))) (f64x2.extract_lane 0 (local.get $cd)))
            (f64x2.extract_lane 1 (local.get $cd)))))
        (local.set $v (local.get $rowEnd))
        (local.set $rows (i32.sub (local.get $rows) (i32.const 1)))
        (br_if $row (local.get $rows))))
    (local.get $best)))
