# The npm registry reachable here serves only this platform's prebuilt DuckDB bindings, so `npm install` leaves the
# other platforms' optional bindings out of package-lock.json and `npm ci` then refuses the lock. This adds them back as
# optional, platform-restricted entries (never fetched on linux-x64). Run after any `npm install`:
#   python3 .ci/lock-platforms.py package-lock.json
import json,sys
p=sys.argv[1]; d=json.load(open(p))
pk=d['packages']
plat={'darwin-arm64':('darwin','arm64',None),'darwin-x64':('darwin','x64',None),'linux-arm64':('linux','arm64','glibc'),'linux-arm64-musl':('linux','arm64','musl'),'linux-x64-musl':('linux','x64','musl'),'win32-arm64':('win32','arm64',None),'win32-x64':('win32','x64',None)}
for k,(os_,cpu,libc) in plat.items():
    key=f'node_modules/@duckdb/node-bindings-{k}'
    if key in pk: continue
    e={'version':'1.5.6-r.1','cpu':[cpu],'license':'MIT','optional':True,'os':[os_]}
    if libc: e['libc']=[libc]
    pk[key]=e
d['packages']=dict(sorted(pk.items(), key=lambda kv: (kv[0]!='', kv[0])))
json.dump(d,open(p,'w'),indent=2); open(p,'a').write('\n')
