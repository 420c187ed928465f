var Le=Object.defineProperty;var u=(C,E)=>Le(C,"name",{value:E,configurable:!0});const Ue=105,De=[105],Ge={2105:((C,E,$)=>{$.r(E),$.d(E,{cleanOutput:u(()=>ke,"cleanOutput"),renderRunSummary:u(()=>we,"renderRunSummary"),warmUp:u(()=>Te,"warmUp")});var M=$(3376),r=$(4370),v=$(7708);const V=16*1024;function Q(e,n){if(!e)return"";const t=u(c=>{const i=(0,r.Wp)(c,V,`
…(clipped)`);return i.clipped&&n(),i.text},"clip"),s=e.followUpOf?` (after one follow-up in the session of run ${(0,r.mG)(e.followUpOf)})`:"";if(e.value!==void 0){const c=JSON.stringify(JSON.parse(e.value),null,2);return`### Structured output

The answer matches \`output-schema\`${s}:

${(0,r.OF)(t(c),"json")}`}const o=e.secondError&&e.secondError!==e.error?`

The follow-up's answer: ${(0,r.mG)((0,v.em)(e.secondError))}`:"",a=e.block===void 0?"":`

The offending block:

${(0,r.OF)(t(e.block),"json")}`;return`### Structured output

The answer does not match \`output-schema\`${s}: ${(0,r.mG)((0,v.em)(e.error??"unknown error"))}${o}${a}`}u(Q,"structuredSection");var Z=$(1953),q=$(7539),B=$(551),P=$(4573),_=$(8022);const ee=400,ne=2e5,te=48,re=2e4;function se(e){try{const n=new _.JG({gfm:!0,breaks:!1}),t=n.blockTokens(e,n.tokens);for(const s of n.inlineQueue)n.state.inRawBlock=!1,s.src.length<=re&&ce(s.src)<=ee?n.inlineTokens(s.src,s.tokens):s.tokens.push({type:"text",raw:s.src,text:s.src,escaped:!1});return n.inlineQueue=[],t}catch{return}}u(se,"lexBlocks");function oe(e){return e.replace(/^[ \t>*+\-.)\d]{49,}/gm,n=>n.slice(0,te))}u(oe,"boundNesting");function ce(e){let n=0;for(let t=0;t<e.length;t++){const s=e.charCodeAt(t);(s===42||s===95||s===126||s===91||s===96)&&n++}return n}u(ce,"countDelimiters");const ue=8,L="…(clipped)";function I(e,n={}){const t={headingFloor:Math.min(6,Math.max(1,(n.headingsBelow??0)+1)),depth:0},s=n.maxBytes??Number.POSITIVE_INFINITY,o=oe((0,r.Pu)(e,ne,"").text.replace(/\r\n?/g,`
`).replace(/\u0000/g,"�")),a=se(o);if(!a)return R(o,s);const c=[];let i=0;for(let g=0;g<a.length;g++){const h=a[g],m=j(h,t);if(!m)continue;const p=m.join(`
`),d=P.Buffer.byteLength(p,"utf8")+2;if(i+d<=s){c.push(p),i+=d;continue}const b=s-i-2;return b>200&&c.push(R(h.raw,b).markdown),{markdown:c.join(`

`),clipped:!0}}return{markdown:c.join(`

`),clipped:!1}}u(I,"untrustedMarkdown");function R(e,n){let t=e,s=!1;const o=64;return P.Buffer.byteLength(t,"utf8")+o>n&&(t=(0,r.Wp)(t,Math.max(0,n-o-L.length-1),"").text+`
${L}`,s=!0),{markdown:(0,r.OF)(t),clipped:s}}u(R,"fitCode");function j(e,n){if(n.depth>ue)return G(e.raw.replace(/\n+$/,""));switch(e.type){case"space":case"def":return;case"heading":{const t=e,s=Math.min(6,Math.max(t.depth,n.headingFloor)),o=F(k(t.tokens,n));return[`${"#".repeat(s)} ${o}`.trimEnd()]}case"paragraph":return y(k(e.tokens,n));case"text":{const t=e;return y(t.tokens?k(t.tokens,n):S(t.text))}case"code":{const t=e;return G(t.text,t.lang??"")}case"html":return y(S(e.text).replace(/\n+$/,"").replace(/\n/g,`\\
`));case"hr":return["___"];case"blockquote":return D(e.tokens,U(n)).map(s=>s===""?">":`> ${s}`);case"list":return ie(e,n);case"table":return le(e,n);default:return y(S(e.raw))}}u(j,"renderBlock");function U(e){return{...e,depth:e.depth+1}}u(U,"nested");function D(e,n,t=!1){const s=[];for(const o of e){const a=j(o,n);a&&(s.length>0&&!(t&&ae(o))&&s.push(""),s.push(...a))}return s}u(D,"renderBlocks");function ae(e){if(e.type==="code")return!0;if(e.type!=="list")return!1;const n=e;return!n.ordered||Number(n.start)===1||n.start===""}u(ae,"interruptsParagraph");function y(e){const n=e.split(`
`).map(t=>t.replace(/^[ \t]+/,"").replace(/^[-=]/,"\\$&").replace(/^(\d{1,9})([.)])/,"$1\\$2"));for(;n.length>0&&n[n.length-1]?.trim()==="";)n.pop();return n.length>0?n:void 0}u(y,"paragraphLines");function ie(e,n){const t=n.listMarker==="-"?"*":"-",s=Number.isSafeInteger(Number(e.start))?Math.min(999999999,Math.max(0,Number(e.start))):1,o={...U(n),listMarker:t},a=[];return e.items.forEach((c,i)=>{const g=e.ordered?`${s+i}.`:t,h=c.task?c.checked?"[x] ":"[ ] ":"",m=D(c.tokens.filter(x=>x.type!=="checkbox"),o,!e.loose),p=" ".repeat(g.length+1);i>0&&e.loose&&a.push("");const[d="",...b]=m.length>0?m:[""];a.push(`${g} ${h}${d}`.trimEnd());for(const x of b)a.push(x===""?"":p+x)}),a}u(ie,"renderList");function le(e,n){const t={...n,inTable:!0},s=u(c=>F(k(c,t))||" ","cell"),o=u(c=>`| ${c.map(i=>s(i.tokens)).join(" | ")} |`,"row"),a=`| ${e.align.map(c=>c==="right"?"---:":c==="center"?":---:":c==="left"?":---":"---").join(" | ")} |`;return[o(e.header),a,...e.rows.map(o)]}u(le,"renderTable");function G(e,n){return(0,r.OF)(e,n).split(`
`)}u(G,"codeBlock");function k(e,n){return e?e.map(t=>pe(t,n)).join(""):""}u(k,"renderInline");function pe(e,n){switch(e.type){case"text":{const t=e;return t.tokens?k(t.tokens,n):S(t.text)}case"escape":return S(e.text);case"strong":return O("**",k(e.tokens,n));case"em":return O("_",k(e.tokens,n));case"del":return O("~~",k(e.tokens,n));case"codespan":return de(e.text,n);case"br":return`\\
`;case"link":{const t=e;return Y(t.href,k(t.tokens,n)||S(t.href))}case"image":{const t=e;return Y(t.href,`image: ${S(t.text||t.href)}`)}case"checkbox":return"";case"html":return S(e.text);default:return S(e.raw)}}u(pe,"inlineToken");function O(e,n){return n.trim()===""?n:`${e}${n}${e}`}u(O,"wrap");function de(e,n){return n.inTable?(0,r.aY)(e).replace(/\|/g,"\\|"):(0,r.aY)(e)}u(de,"codeSpan");function Y(e,n){const t=fe(e);return t?`[${n.replace(/\n/g," ")}](<${t}>)`:n}u(Y,"linkTo");function fe(e){let n;try{n=new URL(H(e).trim())}catch{return}if(!(n.protocol!=="https:"&&n.protocol!=="http:"&&n.protocol!=="mailto:"))return n.href.replace(/[<>\\\s]/g,t=>`%${t.charCodeAt(0).toString(16).toUpperCase().padStart(2,"0")}`)}u(fe,"safeUrl");function S(e){return(0,r.ZV)(H(e)).replace(/[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/g," ").replace(/[\\`*_{}[\]()#+!~|&<>@]/g,n=>he[n]??`\\${n}`)}u(S,"escapeText");const he={"&":"&amp;","<":"&lt;",">":"&gt;","@":`@${r.pe}`};function F(e){return e.replace(/\\\n/g," ").replace(/\n/g," ").trim()}u(F,"oneLine");function H(e){return e.includes("&")?e.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|amp|lt|gt|quot|apos|nbsp);/gi,(n,t)=>{const s=t.toLowerCase(),o=s.startsWith("#x")?parseInt(s.slice(2),16):s.startsWith("#")?Number(s.slice(1)):void 0;return o!==void 0?o>0&&o<=1114111&&(o<55296||o>57343)?String.fromCodePoint(o):"�":me[s]??n}):e}u(H,"decodeEntities");const me={amp:"&",lt:"<",gt:">",quot:'"',apos:"'",nbsp:" "},ge=2e5,l={name:200,verdict:2e3,message:64*1024,approvalArgs:64*1024,sourcesList:32*1024,source:2e3,stepsTable:128*1024,stepTool:200,stepError:500,stepJson:200,stepCalls:32*1024,children:50},$e={pass:"✅",warn:"⚠️",fail:"❌"},be=`## A

Some *text* with \`code\`, **bold** and a [link](https://example.com).

- one
- two

| a | b |
|---|---|
| 1 | 2 |

> quoted

\`\`\`
code
\`\`\`
`;function Te(){I(be)}u(Te,"warmUp");function ke(e){return(0,r.ZV)(I(e,{maxBytes:Se}).markdown)}u(ke,"cleanOutput");const Se=768*1024;function we(e,n,t={}){const s=t.budget??r.Gh,o=e.detail;let a=!1;const c=u((f,w)=>{const T=(0,r.Pu)(f,w," …(clipped)");return a||=T.clipped,T.text},"clip"),i=[];i.push(`## ${$e[n.status]} Agent run: ${(0,r.mG)(c(e.agent,l.name))} — ${(0,r.mG)(c(e.phase,l.name))}`);const g=!!o?.message&&e.outcome!=="succeeded";xe(e,n)||i.push((0,r.mG)(c(g?Ae(n.message,o?.message??""):n.message,l.verdict))),e.reused&&i.push(`> [!NOTE]
> The hub returned an existing run for this idempotency key (a re-run on the same commit attaches to the first run instead of starting another).`);const h=o?.durationMS??Oe(o?.startedAt,o?.finishedAt),m=[["Run",(0,r.aY)(c(e.runId,l.name))],["Phase",`**${(0,r.mG)(c(e.phase,l.name))}**${e.settled?"":" (not settled)"}`],["Duration",(0,r.a3)(h)],["Waited",(0,r.a3)(e.waitedMs)]],p=(0,M.pJ)((0,M.XM)(e));p.runs>0&&(m.push(["Tokens in / out",`${(0,r.B4)(p.inputTokens)} / ${(0,r.B4)(p.outputTokens)}`]),m.push(["Cost",(0,r.UK)(p.usdMicros)])),i.push((0,r.tp)(m.map(([f],w)=>({header:f,cell:u(T=>T[w]??"","cell")})),[m.map(f=>f[1])])),p.runs>0&&i.push((0,M.EK)(p)),e.idempotencyKey&&i.push(`Idempotency key ${(0,r.aY)(c(e.idempotencyKey,l.name))}, session ${(0,r.aY)((0,Z.Rj)(e.sessionId))}.`);const d=[];if(o?.message&&g&&d.push(`### Message from the hub

${(0,r.OF)(K(o.message,l.message))}`),o?.pending&&e.phase==="PendingApproval"){const f=o.pending.args===void 0?"":`

${(0,r.OF)(K((0,B.D)(o.pending.args,l.approvalArgs),l.approvalArgs),"json")}`,w=o.pending.inboxID?` (approval ${(0,r.aY)(c(o.pending.inboxID,l.name))})`:"";d.push(`### Waiting for approval

Tool ${(0,r.aY)(c(o.pending.tool??"unknown",l.name))} needs a human's approval${w}: on the hub, or with \`command: approve\` and this step's \`approval-id\` output.${f}`)}const b=[],x=(o?.sources??[]).filter(f=>!o?.output?.includes(f));x.length>0&&b.push(Ee(x,c,()=>a=!0));const J=Q(e.structured,()=>a=!0);J&&d.push(J);const X=o?Ne(o,c):"";X&&b.push(X),o&&o.steps.length>0&&b.push(ye(o.steps,c,()=>a=!0));function K(f,w){const T=(0,r.Wp)(f,w,`
…(clipped)`);return a||=T.clipped,T.text}u(K,"clipBytesNoting");let N;if(o?.output){const f=W(t.resultFile),w=[...i,...d,...b,f].reduce((ve,Pe)=>ve+(0,r.dp)(Pe)+2,0),T=(0,r.Pu)(o.output,ge,`

…(clipped)`),Ce=Math.max(0,s-w-(0,r.dp)(`### Output

`)-1),z=I(T.text,{headingsBelow:3,maxBytes:Ce});a||=T.clipped||z.clipped,N=`### Output

${z.markdown||"_(too long for the job summary: see the result file)_"}`}return`${[...i,...a?[W(t.resultFile)]:[],...d,...N?[N]:[],...b].join(`

`)}
`}u(we,"renderRunSummary");function xe(e,n){return e.outcome==="succeeded"?n.status==="pass":(e.outcome==="failed"||e.outcome==="aborted")&&!!e.detail?.message}u(xe,"verdictRepeatsHeading");function W(e){return`> [!NOTE]
> Parts of this run were cut to keep the job summary under GitHub's 1 MiB limit: ${e?`the result file ${(0,r.aY)(e)} (output \`result-file\`)`:"the result file (output `result-file`)"} holds all of it.`}u(W,"trimmedNote");function Ee(e,n,t){const s=[];let o=0;for(const a of e){const c=`- ${Ie(n(a,l.source))}`;if(o+(0,r.dp)(c)+1>l.sourcesList)break;s.push(c),o+=(0,r.dp)(c)+1}return s.length<e.length&&(t(),s.push(`- … and ${(0,r.B4)(e.length-s.length)} more: the result file lists them all.`)),`### Sources

${s.join(`
`)}`}u(Ee,"sourcesSection");function ye(e,n,t){const s=[];let o=0;for(const[g,h]of e.entries()){const m={tool:n(h.tool,l.stepTool),outcome:n(h.outcome,l.name),error:h.error&&n(h.error,l.stepError)},p={step:{...h,...m},number:g+1},d=(0,r.dp)(A([p]))-Be;if(o+d>l.stepsTable)break;s.push(p),o+=d}let a=A(s);const c=e.length-s.length;c>0&&(t(),a+=`

… and ${(0,r.B4)(c)} more ${c===1?"step":"steps"}: the result file lists them all.`);const i=Me(s,t);return i&&(a+=`

${i}`),(0,r.zH)(`Steps (${e.length})`,a)}u(ye,"stepsSection");function Me(e,n){const t=[];let s=0;for(const{step:o,number:a}of e){const c=[];if(o.args!==void 0&&c.push(`arguments ${(0,r.aY)((0,B.D)(o.args,l.stepJson,"compact"))}`),o.result!==void 0&&c.push(`result ${(0,r.aY)((0,B.D)(o.result,l.stepJson,"compact"))}`),c.length===0)continue;const i=`- ${a}: ${c.join(" → ")}`;if(s+(0,r.dp)(i)+1>l.stepCalls){n(),t.push("- … the result file holds the rest.");break}t.push(i),s+=(0,r.dp)(i)+1}return t.length>0?`Calls:

${t.join(`
`)}`:""}u(Me,"stepCalls");function A(e){return(0,r.tp)([{header:"#",cell:u(n=>String(n.number),"cell"),align:"right"},{header:"Tool",cell:u(n=>(0,r.aY)(n.step.tool),"cell")},{header:"Outcome",cell:u(n=>(0,r.mG)(n.step.outcome)+(n.step.error?` — ${(0,r.mG)(n.step.error)}`:""),"cell")},{header:"Duration",cell:u(n=>(0,r.a3)(n.step.durationMS),"cell"),align:"right"}],e)}u(A,"stepsTable");const Be=(0,r.dp)(A([]));function Ie(e){try{const n=new URL(e);if(n.protocol==="https:"||n.protocol==="http:")return`<${n.href.replace(/[<>\\\s]/g,encodeURIComponent)}>`}catch{}return(0,r.mG)(e)}u(Ie,"linkOrText");function Oe(e,n){if(!e||!n)return;const t=Date.parse(n)-Date.parse(e);return Number.isFinite(t)?t:void 0}u(Oe,"spanMs");function Ae(e,n){const t=e.indexOf(`: ${n}`);return t<0?e:`${e.slice(0,t)} (the hub's message is below).${e.slice(t+2+n.length)}`}u(Ae,"withoutHubMessage");function Ne(e,n){const t=e.children.flatMap(c=>{const i=q.d2.safeParse(c);return i.success?[i.data]:[]});if(t.length===0)return"";const s=t.slice(0,l.children),o=(0,r.tp)([{header:"Run",cell:u(c=>(0,r.aY)(n(c.id??"unknown",l.name)),"cell")},{header:"Agent",cell:u(c=>(0,r.mG)(n(c.agent??"unknown",l.name)),"cell")},{header:"Phase",cell:u(c=>(0,r.mG)(n(c.phase??"unknown",l.name)),"cell")},{header:"Kind",cell:u(c=>(0,r.mG)(n(c.class??c.trigger??"",l.name)),"cell")}],s),a=t.length>s.length?`

… and ${(0,r.B4)(t.length-s.length)} more: the result file lists them all.`:"";return`### Children runs (${(0,r.B4)(t.length)})

${o}${a}`}u(Ne,"childrenSection")})};export{Ue as id,De as ids,Ge as modules};
