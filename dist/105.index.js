var Re=Object.defineProperty;var u=(N,E)=>Re(N,"name",{value:E,configurable:!0});const Ue=105,De=[105],Ye={2105:((N,E,g)=>{g.r(E),g.d(E,{cleanOutput:u(()=>we,"cleanOutput"),renderRunSummary:u(()=>xe,"renderRunSummary"),warmUp:u(()=>ke,"warmUp")});var M=g(3376),r=g(4370),C=g(7708);const Z=16*1024;function q(e,n){if(!e)return"";const t=u(c=>{const i=(0,r.Wp)(c,Z,`
…(clipped)`);return i.clipped&&n(),i.text},"clip"),s=e.followUpOf?` (after one follow-up in the session of run ${(0,r.mG)(e.followUpOf)})`:"";if(e.value!==void 0){const c=JSON.stringify(JSON.parse(e.value),null,2);return`### Structured output

The answer matches \`output-schema\`${s}:

${(0,r.OF)(t(c),"json")}`}const o=e.secondError&&e.secondError!==e.error?`

The follow-up's answer: ${(0,r.mG)((0,C.em)(e.secondError))}`:"",a=e.block===void 0?"":`

The offending block:

${(0,r.OF)(t(e.block),"json")}`;return`### Structured output

The answer does not match \`output-schema\`${s}: ${(0,r.mG)((0,C.em)(e.error??"unknown error"))}${o}${a}`}u(q,"structuredSection");var _=g(1953),P=g(7539),A=g(551),L=g(4573),ee=g(8022);const ne=400,te=2e5,re=48,se=2e4;function oe(e){try{const n=new ee.JG({gfm:!0,breaks:!1}),t=n.blockTokens(e,n.tokens);for(const s of n.inlineQueue)n.state.inRawBlock=!1,s.src.length<=se&&ue(s.src)<=ne?n.inlineTokens(s.src,s.tokens):s.tokens.push({type:"text",raw:s.src,text:s.src,escaped:!1});return n.inlineQueue=[],t}catch{return}}u(oe,"lexBlocks");function ce(e){return e.replace(/^[ \t>*+\-.)\d]{49,}/gm,n=>n.slice(0,re))}u(ce,"boundNesting");function ue(e){let n=0;for(let t=0;t<e.length;t++){const s=e.charCodeAt(t);(s===42||s===95||s===126||s===91||s===96)&&n++}return n}u(ue,"countDelimiters");const ae=8,R="…(clipped)";function B(e,n={}){const t={headingFloor:Math.min(6,Math.max(1,(n.headingsBelow??0)+1)),depth:0},s=n.maxBytes??Number.POSITIVE_INFINITY,o=ce((0,r.Pu)(e,te,"").text.replace(/\r\n?/g,`
`).replace(/\u0000/g,"�")),a=oe(o);if(!a)return G(o,s);const c=[];let i=0;for(let m=0;m<a.length;m++){const d=a[m],S=j(d,t);if(!S)continue;const h=S.join(`
`),p=L.Buffer.byteLength(h,"utf8")+2;if(i+p<=s){c.push(h),i+=p;continue}const $=s-i-2;return $>200&&c.push(G(d.raw,$).markdown),{markdown:c.join(`

`),clipped:!0}}return{markdown:c.join(`

`),clipped:!1}}u(B,"untrustedMarkdown");function G(e,n){let t=e,s=!1;const o=64;return L.Buffer.byteLength(t,"utf8")+o>n&&(t=(0,r.Wp)(t,Math.max(0,n-o-R.length-1),"").text+`
${R}`,s=!0),{markdown:(0,r.OF)(t),clipped:s}}u(G,"fitCode");function j(e,n){if(n.depth>ae)return Y(e.raw.replace(/\n+$/,""));switch(e.type){case"space":case"def":return;case"heading":{const t=e,s=Math.min(6,Math.max(t.depth,n.headingFloor)),o=H(k(t.tokens,n));return[`${"#".repeat(s)} ${o}`.trimEnd()]}case"paragraph":return y(k(e.tokens,n));case"text":{const t=e;return y(t.tokens?k(t.tokens,n):w(t.text))}case"code":{const t=e;return Y(t.text,t.lang??"")}case"html":return y(w(e.text).replace(/\n+$/,"").replace(/\n/g,`\\
`));case"hr":return["___"];case"blockquote":return D(e.tokens,U(n)).map(s=>s===""?">":`> ${s}`);case"list":return le(e,n);case"table":return pe(e,n);default:return y(w(e.raw))}}u(j,"renderBlock");function U(e){return{...e,depth:e.depth+1}}u(U,"nested");function D(e,n,t=!1){const s=[];for(const o of e){const a=j(o,n);a&&(s.length>0&&!(t&&ie(o))&&s.push(""),s.push(...a))}return s}u(D,"renderBlocks");function ie(e){if(e.type==="code")return!0;if(e.type!=="list")return!1;const n=e;return!n.ordered||Number(n.start)===1||n.start===""}u(ie,"interruptsParagraph");function y(e){const n=e.split(`
`).map(t=>t.replace(/^[ \t]+/,"").replace(/^[-=]/,"\\$&").replace(/^(\d{1,9})([.)])/,"$1\\$2"));for(;n.length>0&&n[n.length-1]?.trim()==="";)n.pop();return n.length>0?n:void 0}u(y,"paragraphLines");function le(e,n){const t=n.listMarker==="-"?"*":"-",s=Number.isSafeInteger(Number(e.start))?Math.min(999999999,Math.max(0,Number(e.start))):1,o={...U(n),listMarker:t},a=[];return e.items.forEach((c,i)=>{const m=e.ordered?`${s+i}.`:t,d=c.task?c.checked?"[x] ":"[ ] ":"",S=D(c.tokens.filter(b=>b.type!=="checkbox"),o,!e.loose),h=" ".repeat(m.length+1);i>0&&e.loose&&a.push("");const[p="",...$]=S.length>0?S:[""];a.push(`${m} ${d}${p}`.trimEnd());for(const b of $)a.push(b===""?"":h+b)}),a}u(le,"renderList");function pe(e,n){const t={...n,inTable:!0},s=u(c=>H(k(c,t))||" ","cell"),o=u(c=>`| ${c.map(i=>s(i.tokens)).join(" | ")} |`,"row"),a=`| ${e.align.map(c=>c==="right"?"---:":c==="center"?":---:":c==="left"?":---":"---").join(" | ")} |`;return[o(e.header),a,...e.rows.map(o)]}u(pe,"renderTable");function Y(e,n){return(0,r.OF)(e,n).split(`
`)}u(Y,"codeBlock");function k(e,n){return e?e.map(t=>de(t,n)).join(""):""}u(k,"renderInline");function de(e,n){switch(e.type){case"text":{const t=e;return t.tokens?k(t.tokens,n):w(t.text)}case"escape":return w(e.text);case"strong":return I("**",k(e.tokens,n));case"em":return I("_",k(e.tokens,n));case"del":return I("~~",k(e.tokens,n));case"codespan":return fe(e.text,n);case"br":return`\\
`;case"link":{const t=e;return F(t.href,k(t.tokens,n)||w(t.href))}case"image":{const t=e;return F(t.href,`image: ${w(t.text||t.href)}`)}case"checkbox":return"";case"html":return w(e.text);default:return w(e.raw)}}u(de,"inlineToken");function I(e,n){return n.trim()===""?n:`${e}${n}${e}`}u(I,"wrap");function fe(e,n){return n.inTable?(0,r.aY)(e).replace(/\|/g,"\\|"):(0,r.aY)(e)}u(fe,"codeSpan");function F(e,n){const t=he(e);return t?`[${n.replace(/\n/g," ")}](<${t}>)`:n}u(F,"linkTo");function he(e){let n;try{n=new URL(W(e).trim())}catch{return}if(!(n.protocol!=="https:"&&n.protocol!=="http:"&&n.protocol!=="mailto:"))return n.href.replace(/[<>\\\s]/g,t=>`%${t.charCodeAt(0).toString(16).toUpperCase().padStart(2,"0")}`)}u(he,"safeUrl");function w(e){return(0,r.ZV)(W(e)).replace(/[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/g," ").replace(/[\\`*_{}[\]()#+!~|&<>@]/g,n=>me[n]??`\\${n}`)}u(w,"escapeText");const me={"&":"&amp;","<":"&lt;",">":"&gt;","@":`@${r.pe}`};function H(e){return e.replace(/\\\n/g," ").replace(/\n/g," ").trim()}u(H,"oneLine");function W(e){return e.includes("&")?e.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|amp|lt|gt|quot|apos|nbsp);/gi,(n,t)=>{const s=t.toLowerCase(),o=s.startsWith("#x")?parseInt(s.slice(2),16):s.startsWith("#")?Number(s.slice(1)):void 0;return o!==void 0?o>0&&o<=1114111&&(o<55296||o>57343)?String.fromCodePoint(o):"�":ge[s]??n}):e}u(W,"decodeEntities");const ge={amp:"&",lt:"<",gt:">",quot:'"',apos:"'",nbsp:" "},$e=2e5,l={name:200,verdict:2e3,message:64*1024,approvalArgs:64*1024,sourcesList:32*1024,source:2e3,stepsTable:128*1024,stepTool:200,stepError:500,stepJson:200,stepCalls:32*1024,children:50},be={pass:"✅",warn:"⚠️",fail:"❌"},Te=`## A

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
`;function ke(){B(Te)}u(ke,"warmUp");function we(e){return(0,r.ZV)(B(e,{maxBytes:Se}).markdown)}u(we,"cleanOutput");const Se=768*1024;function xe(e,n,t={}){const s=t.budget??r.Gh,o=e.detail;let a=!1;const c=u((f,x)=>{const T=(0,r.Pu)(f,x," …(clipped)");return a||=T.clipped,T.text},"clip"),i=[],m=e.outcome==="awaiting-approval"||(0,P.GK)(e.phase)==="PendingApproval";i.push(`## ${m?"⏸️":be[n.status]} Agent run: ${(0,r.mG)(c(e.agent,l.name))} — ${m?"waiting for approval":(0,r.mG)(c(e.phase,l.name))}`);const d=!!o?.message&&e.outcome!=="succeeded";Ee(e,n)||i.push((0,r.mG)(c(d?ve(n.message,o?.message??""):n.message,l.verdict))),e.reused&&i.push(`> [!NOTE]
> The hub returned an existing run for this idempotency key (a re-run on the same commit attaches to the first run instead of starting another).`);const S=o?.durationMS??Oe(o?.startedAt,o?.finishedAt),h=[["Run",(0,r.aY)(c(e.runId,l.name))],["Phase",`**${(0,r.mG)(c(e.phase,l.name))}**${e.settled?"":" (not settled)"}`],["Duration",(0,r.a3)(S)],["Waited",(0,r.a3)(e.waitedMs)]],p=(0,M.pJ)((0,M.XM)(e));p.runs>0&&(h.push(["Tokens in / out",`${(0,r.B4)(p.inputTokens)} / ${(0,r.B4)(p.outputTokens)}`]),h.push(["Cost",(0,r.UK)(p.usdMicros)])),i.push((0,r.tp)(h.map(([f],x)=>({header:f,cell:u(T=>T[x]??"","cell")})),[h.map(f=>f[1])])),p.runs>0&&i.push((0,M.EK)(p)),e.idempotencyKey&&i.push(`Idempotency key ${(0,r.aY)(c(e.idempotencyKey,l.name))}, session ${(0,r.aY)((0,_.Rj)(e.sessionId))}.`);const $=[];if(o?.message&&d&&$.push(`### Message from the hub

${(0,r.OF)(V(o.message,l.message))}`),o?.pending&&e.phase==="PendingApproval"){const f=o.pending.args===void 0?"":`

${(0,r.OF)(V((0,A.D)(o.pending.args,l.approvalArgs),l.approvalArgs),"json")}`,x=o.pending.inboxID?` (approval ${(0,r.aY)(c(o.pending.inboxID,l.name))})`:"";$.push(`### Waiting for approval

Tool ${(0,r.aY)(c(o.pending.tool??"unknown",l.name))} needs a human's approval${x}: on the hub, or with \`command: approve\` and this step's \`approval-id\` output.${f}`)}const b=[],K=(o?.sources??[]).filter(f=>!o?.output?.includes(f));K.length>0&&b.push(ye(K,c,()=>a=!0));const X=q(e.structured,()=>a=!0);X&&$.push(X);const z=o?Ne(o,c):"";z&&b.push(z),o&&o.steps.length>0&&b.push(Me(o.steps,c,()=>a=!0));function V(f,x){const T=(0,r.Wp)(f,x,`
…(clipped)`);return a||=T.clipped,T.text}u(V,"clipBytesNoting");let v;if(o?.output){const f=J(t.resultFile),x=[...i,...$,...b,f].reduce((Pe,Le)=>Pe+(0,r.dp)(Le)+2,0),T=(0,r.Pu)(o.output,$e,`

…(clipped)`),Ce=Math.max(0,s-x-(0,r.dp)(`### Output

`)-1),Q=B(T.text,{headingsBelow:3,maxBytes:Ce});a||=T.clipped||Q.clipped,v=`### Output

${Q.markdown||"_(too long for the job summary: see the result file)_"}`}return`${[...i,...a?[J(t.resultFile)]:[],...$,...v?[v]:[],...b].join(`

`)}
`}u(xe,"renderRunSummary");function Ee(e,n){return e.outcome==="succeeded"?n.status==="pass":(e.outcome==="failed"||e.outcome==="aborted")&&!!e.detail?.message}u(Ee,"verdictRepeatsHeading");function J(e){return`> [!NOTE]
> Parts of this run were cut to keep the job summary under GitHub's 1 MiB limit: ${e?`the result file ${(0,r.aY)(e)} (output \`result-file\`)`:"the result file (output `result-file`)"} holds all of it.`}u(J,"trimmedNote");function ye(e,n,t){const s=[];let o=0;for(const a of e){const c=`- ${Ie(n(a,l.source))}`;if(o+(0,r.dp)(c)+1>l.sourcesList)break;s.push(c),o+=(0,r.dp)(c)+1}return s.length<e.length&&(t(),s.push(`- … and ${(0,r.B4)(e.length-s.length)} more: the result file lists them all.`)),`### Sources

${s.join(`
`)}`}u(ye,"sourcesSection");function Me(e,n,t){const s=[];let o=0;for(const[m,d]of e.entries()){const S={tool:n(d.tool,l.stepTool),outcome:n(d.outcome,l.name),error:d.error&&n(d.error,l.stepError)},h={step:{...d,...S},number:m+1},p=(0,r.dp)(O([h]))-Be;if(o+p>l.stepsTable)break;s.push(h),o+=p}let a=O(s);const c=e.length-s.length;c>0&&(t(),a+=`

… and ${(0,r.B4)(c)} more ${c===1?"step":"steps"}: the result file lists them all.`);const i=Ae(s,t);return i&&(a+=`

${i}`),(0,r.zH)(`Steps (${e.length})`,a)}u(Me,"stepsSection");function Ae(e,n){const t=[];let s=0;for(const{step:o,number:a}of e){const c=[];if(o.args!==void 0&&c.push(`arguments ${(0,r.aY)((0,A.D)(o.args,l.stepJson,"compact"))}`),o.result!==void 0&&c.push(`result ${(0,r.aY)((0,A.D)(o.result,l.stepJson,"compact"))}`),c.length===0)continue;const i=`- ${a}: ${c.join(" → ")}`;if(s+(0,r.dp)(i)+1>l.stepCalls){n(),t.push("- … the result file holds the rest.");break}t.push(i),s+=(0,r.dp)(i)+1}return t.length>0?`Calls:

${t.join(`
`)}`:""}u(Ae,"stepCalls");function O(e){return(0,r.tp)([{header:"#",cell:u(n=>String(n.number),"cell"),align:"right"},{header:"Tool",cell:u(n=>(0,r.aY)(n.step.tool),"cell")},{header:"Outcome",cell:u(n=>(0,r.mG)(n.step.outcome)+(n.step.error?` — ${(0,r.mG)(n.step.error)}`:""),"cell")},{header:"Duration",cell:u(n=>(0,r.a3)(n.step.durationMS),"cell"),align:"right"}],e)}u(O,"stepsTable");const Be=(0,r.dp)(O([]));function Ie(e){try{const n=new URL(e);if(n.protocol==="https:"||n.protocol==="http:")return`<${n.href.replace(/[<>\\\s]/g,encodeURIComponent)}>`}catch{}return(0,r.mG)(e)}u(Ie,"linkOrText");function Oe(e,n){if(!e||!n)return;const t=Date.parse(n)-Date.parse(e);return Number.isFinite(t)?t:void 0}u(Oe,"spanMs");function ve(e,n){const t=e.indexOf(`: ${n}`);return t<0?e:`${e.slice(0,t)} (the hub's message is below).${e.slice(t+2+n.length)}`}u(ve,"withoutHubMessage");function Ne(e,n){const t=e.children.flatMap(c=>{const i=P.d2.safeParse(c);return i.success?[i.data]:[]});if(t.length===0)return"";const s=t.slice(0,l.children),o=(0,r.tp)([{header:"Run",cell:u(c=>(0,r.aY)(n(c.id??"unknown",l.name)),"cell")},{header:"Agent",cell:u(c=>(0,r.mG)(n(c.agent??"unknown",l.name)),"cell")},{header:"Phase",cell:u(c=>(0,r.mG)(n(c.phase??"unknown",l.name)),"cell")},{header:"Kind",cell:u(c=>(0,r.mG)(n(c.class??c.trigger??"",l.name)),"cell")}],s),a=t.length>s.length?`

… and ${(0,r.B4)(t.length-s.length)} more: the result file lists them all.`:"";return`### Children runs (${(0,r.B4)(t.length)})

${o}${a}`}u(Ne,"childrenSection")})};export{Ue as id,De as ids,Ye as modules};
