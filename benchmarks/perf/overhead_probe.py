import sys
sys.path.insert(0,'.')
from suggest_cpu import nextedit_agent, echo_agent, did_change, suggest_params
from languages import Source
import suggest_cpu as S
a=nextedit_agent(); a.start()
uri='file:///tiny.txt'
a.write({"jsonrpc":"2.0","method":"document/didOpen","params":{"sessionId":a.session,"uri":uri,"languageId":"plaintext","version":1,"text":"x\n"}}); a.probe()
cpu=[]; wall=[]
for r in range(300):
    v=r+2
    c,w,_=a.timed(did_change(a.session, uri, v, 0, 0, 1, 'xy'[r%2]), request=a.request('nes/suggest', suggest_params(a.session, uri, v, 0, 1)))
    if r>=20: cpu.append(c); wall.append(w)
a.close()
cpu.sort(); wall.sort()
print('tiny doc: cpu p50 %.3f p90 %.3f, wall p50 %.3f'%(cpu[len(cpu)//2], cpu[int(.9*len(cpu))], wall[len(wall)//2]))
