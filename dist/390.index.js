var Ue=Object.defineProperty;var c=(C,E)=>Ue(C,"name",{value:E,configurable:!0});const Fe=390,He=[390],We={4390:((C,E,m)=>{m.r(E),m.d(E,{cleanOutput:c(()=>Ie,"cleanOutput"),renderRunSummary:c(()=>Oe,"renderRunSummary"),warmUp:c(()=>Ee,"warmUp")});var A=m(3376),u=m(4370),j=m(7708);const ee=16*1024;function ne(e,n){if(!e)return"";const t=c(s=>{const i=(0,u.Wp)(s,ee,`
…(clipped)`);return i.clipped&&n(),i.text},"clip"),r=e.followUpOf?` (after one follow-up in the session of run ${(0,u.mG)(e.followUpOf)})`:"";if(e.value!==void 0){const s=JSON.stringify(JSON.parse(e.value),null,2);return`### Structured output

The answer matches \`output-schema\`${r}:

${(0,u.OF)(t(s),"json")}`}const o=e.secondError&&e.secondError!==e.error?`

The follow-up's answer: ${(0,u.mG)((0,j.em)(e.secondError))}`:"",a=e.block===void 0?"":`

The offending block:

${(0,u.OF)(t(e.block),"json")}`;return`### Structured output

The answer does not match \`output-schema\`${r}: ${(0,u.mG)((0,j.em)(e.error??"unknown error"))}${o}${a}`}c(ne,"structuredSection");var te=m(1953),L=m(7539),$=m(1996),O=m(551);const M={outcome:200,tool:200,error:500,table:128*1024,json:200,calls:32*1024};function re(e,n,t){const r=[];let o=0;for(const[g,p]of e.entries()){const T={tool:n(p.tool,M.tool),outcome:n(p.outcome,M.outcome),error:p.error&&n(p.error,M.error)},f={step:{...p,...T},number:g+1},d=(0,u.dp)(v([f]))-se;if(o+d>M.table)break;r.push(f),o+=d}let a=v(r);const s=e.length-r.length;s>0&&(t(),a+=`

… and ${(0,$.B4)(s)} more ${s===1?"step":"steps"}: the result file lists them all.`);const i=oe(r,t);return i&&(a+=`

${i}`),(0,u.zH)(`Steps (${e.length})`,a)}c(re,"stepsSection");function oe(e,n){const t=[];let r=0;for(const{step:o,number:a}of e){const s=[];if(o.args!==void 0&&s.push(`arguments ${(0,u.aY)((0,O.D)(o.args,M.json,"compact"))}`),o.result!==void 0&&s.push(`result ${(0,u.aY)((0,O.D)(o.result,M.json,"compact"))}`),s.length===0)continue;const i=`- ${a}: ${s.join(" → ")}`;if(r+(0,u.dp)(i)+1>M.calls){n(),t.push("- … the result file holds the rest.");break}t.push(i),r+=(0,u.dp)(i)+1}return t.length>0?`Calls:

${t.join(`
`)}`:""}c(oe,"stepCalls");function v(e){return(0,u.tp)([{header:"#",cell:c(n=>String(n.number),"cell"),align:"right"},{header:"Tool",cell:c(n=>(0,u.aY)(n.step.tool),"cell")},{header:"Outcome",cell:c(n=>(0,u.mG)(n.step.outcome)+(n.step.error?` — ${(0,u.mG)(n.step.error)}`:""),"cell")},{header:"Duration",cell:c(n=>(0,$.a3)(n.step.durationMS),"cell"),align:"right"}],e)}c(v,"stepsTable");const se=(0,u.dp)(v([]));var R=m(4573),ce=m(8022);const ue=400,ae=2e5,ie=48,le=2e4;function de(e){try{const n=new ce.JG({gfm:!0,breaks:!1}),t=n.blockTokens(e,n.tokens);for(const r of n.inlineQueue)n.state.inRawBlock=!1,r.src.length<=le&&fe(r.src)<=ue?n.inlineTokens(r.src,r.tokens):r.tokens.push({type:"text",raw:r.src,text:r.src,escaped:!1});return n.inlineQueue=[],t}catch{return}}c(de,"lexBlocks");function pe(e){return e.replace(/^[ \t>*+\-.)\d]{49,}/gm,n=>n.slice(0,ie))}c(pe,"boundNesting");function fe(e){let n=0;for(let t=0;t<e.length;t++){const r=e.charCodeAt(t);(r===42||r===95||r===126||r===91||r===96)&&n++}return n}c(fe,"countDelimiters");const he=8,G="…(clipped)";function B(e,n={}){const t={headingFloor:Math.min(6,Math.max(1,(n.headingsBelow??0)+1)),depth:0},r=n.maxBytes??Number.POSITIVE_INFINITY,o=pe((0,u.Pu)(e,ae,"").text.replace(/\r\n?/g,`
`).replace(/\u0000/g,"�")),a=de(o);if(!a)return U(o,r);const s=[];let i=0;for(let g=0;g<a.length;g++){const p=a[g],T=D(p,t);if(!T)continue;const f=T.join(`
`),d=R.Buffer.byteLength(f,"utf8")+2;if(i+d<=r){s.push(f),i+=d;continue}const b=r-i-2;return b>200&&s.push(U(p.raw,b).markdown),{markdown:s.join(`

`),clipped:!0}}return{markdown:s.join(`

`),clipped:!1}}c(B,"untrustedMarkdown");function U(e,n){let t=e,r=!1;const o=64;return R.Buffer.byteLength(t,"utf8")+o>n&&(t=(0,u.Wp)(t,Math.max(0,n-o-G.length-1),"").text+`
${G}`,r=!0),{markdown:(0,u.OF)(t),clipped:r}}c(U,"fitCode");function D(e,n){if(n.depth>he)return H(e.raw.replace(/\n+$/,""));switch(e.type){case"space":case"def":return;case"heading":{const t=e,r=Math.min(6,Math.max(t.depth,n.headingFloor)),o=K(k(t.tokens,n));return[`${"#".repeat(r)} ${o}`.trimEnd()]}case"paragraph":return I(k(e.tokens,n));case"text":{const t=e;return I(t.tokens?k(t.tokens,n):x(t.text))}case"code":{const t=e;return H(t.text,t.lang??"")}case"html":return I(x(e.text).replace(/\n+$/,"").replace(/\n/g,`\\
`));case"hr":return["___"];case"blockquote":return F(e.tokens,Y(n)).map(r=>r===""?">":`> ${r}`);case"list":return ge(e,n);case"table":return $e(e,n);default:return I(x(e.raw))}}c(D,"renderBlock");function Y(e){return{...e,depth:e.depth+1}}c(Y,"nested");function F(e,n,t=!1){const r=[];for(const o of e){const a=D(o,n);a&&(r.length>0&&!(t&&me(o))&&r.push(""),r.push(...a))}return r}c(F,"renderBlocks");function me(e){if(e.type==="code")return!0;if(e.type!=="list")return!1;const n=e;return!n.ordered||Number(n.start)===1||n.start===""}c(me,"interruptsParagraph");function I(e){const n=e.split(`
`).map(t=>t.replace(/^[ \t]+/,"").replace(/^[-=]/,"\\$&").replace(/^(\d{1,9})([.)])/,"$1\\$2"));for(;n.length>0&&n[n.length-1]?.trim()==="";)n.pop();return n.length>0?n:void 0}c(I,"paragraphLines");function ge(e,n){const t=n.listMarker==="-"?"*":"-",r=Number.isSafeInteger(Number(e.start))?Math.min(999999999,Math.max(0,Number(e.start))):1,o={...Y(n),listMarker:t},a=[];return e.items.forEach((s,i)=>{const g=e.ordered?`${r+i}.`:t,p=s.task?s.checked?"[x] ":"[ ] ":"",T=F(s.tokens.filter(S=>S.type!=="checkbox"),o,!e.loose),f=" ".repeat(g.length+1);i>0&&e.loose&&a.push("");const[d="",...b]=T.length>0?T:[""];a.push(`${g} ${p}${d}`.trimEnd());for(const S of b)a.push(S===""?"":f+S)}),a}c(ge,"renderList");function $e(e,n){const t={...n,inTable:!0},r=c(s=>K(k(s,t))||" ","cell"),o=c(s=>`| ${s.map(i=>r(i.tokens)).join(" | ")} |`,"row"),a=`| ${e.align.map(s=>s==="right"?"---:":s==="center"?":---:":s==="left"?":---":"---").join(" | ")} |`;return[o(e.header),a,...e.rows.map(o)]}c($e,"renderTable");function H(e,n){return(0,u.OF)(e,n).split(`
`)}c(H,"codeBlock");function k(e,n){return e?e.map(t=>be(t,n)).join(""):""}c(k,"renderInline");function be(e,n){switch(e.type){case"text":{const t=e;return t.tokens?k(t.tokens,n):x(t.text)}case"escape":return x(e.text);case"strong":return N("**",k(e.tokens,n));case"em":return N("_",k(e.tokens,n));case"del":return N("~~",k(e.tokens,n));case"codespan":return Se(e.text,n);case"br":return`\\
`;case"link":{const t=e;return W(t.href,k(t.tokens,n)||x(t.href))}case"image":{const t=e;return W(t.href,`image: ${x(t.text||t.href)}`)}case"checkbox":return"";case"html":return x(e.text);default:return x(e.raw)}}c(be,"inlineToken");function N(e,n){return n.trim()===""?n:`${e}${n}${e}`}c(N,"wrap");function Se(e,n){return n.inTable?(0,u.aY)(e).replace(/\|/g,"\\|"):(0,u.aY)(e)}c(Se,"codeSpan");function W(e,n){const t=we(e);return t?`[${n.replace(/\n/g," ")}](<${t}>)`:n}c(W,"linkTo");function we(e){let n;try{n=new URL(X(e).trim())}catch{return}if(!(n.protocol!=="https:"&&n.protocol!=="http:"&&n.protocol!=="mailto:"))return n.href.replace(/[<>\\\s]/g,t=>`%${t.charCodeAt(0).toString(16).toUpperCase().padStart(2,"0")}`)}c(we,"safeUrl");function x(e){return(0,u.ZV)(X(e)).replace(/[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/g," ").replace(/[\\`*_{}[\]()#+!~|&<>@]/g,n=>ke[n]??`\\${n}`)}c(x,"escapeText");const ke={"&":"&amp;","<":"&lt;",">":"&gt;","@":`@${u.pe}`};function K(e){return e.replace(/\\\n/g," ").replace(/\n/g," ").trim()}c(K,"oneLine");function X(e){return e.includes("&")?e.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|amp|lt|gt|quot|apos|nbsp);/gi,(n,t)=>{const r=t.toLowerCase(),o=r.startsWith("#x")?parseInt(r.slice(2),16):r.startsWith("#")?Number(r.slice(1)):void 0;return o!==void 0?o>0&&o<=1114111&&(o<55296||o>57343)?String.fromCodePoint(o):"�":xe[r]??n}):e}c(X,"decodeEntities");const xe={amp:"&",lt:"<",gt:">",quot:'"',apos:"'",nbsp:" "},Te=2e5,l={name:200,verdict:2e3,message:64*1024,approvalArgs:64*1024,sourcesList:32*1024,source:2e3,children:50},ye={pass:"✅",warn:"⚠️",fail:"❌"},Me=`## A

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
`;function Ee(){B(Me)}c(Ee,"warmUp");function Ie(e){return(0,u.ZV)(B(e,{maxBytes:Ae}).markdown)}c(Ie,"cleanOutput");const Ae=768*1024;function Oe(e,n,t={}){const r=t.budget??u.Gh,o=e.detail;let a=!1;const s=c((h,y)=>{const w=(0,u.Pu)(h,y," …(clipped)");return a||=w.clipped,w.text},"clip"),i=[],g=e.outcome==="awaiting-approval"||(0,L.GK)(e.phase)==="PendingApproval";i.push(`## ${g?"⏸️":ye[n.status]} Agent run: ${(0,u.mG)(s(e.agent,l.name))} — ${g?"waiting for approval":(0,u.mG)(s(e.phase,l.name))}`);const p=!!o?.message&&z(e)!=="succeeded";ve(e,n)||i.push((0,u.mG)(s(p?Ce(n.message,o?.message??""):n.message,l.verdict))),e.reused&&i.push(`> [!NOTE]
> The hub returned an existing run for this idempotency key (a re-run on the same commit attaches to the first run instead of starting another).`);const T=o?.durationMS??Pe(o?.startedAt,o?.finishedAt),f=[["Run",(0,u.aY)(s(e.runId,l.name))],["Phase",`**${(0,u.mG)(s(e.phase,l.name))}**${e.settled?"":" (not settled)"}`],["Duration",(0,$.a3)(T)]];e.waitedMs!==void 0&&f.push(["Waited",(0,$.a3)(e.waitedMs)]);const d=(0,A.pJ)((0,A.XM)(e));d.runs>0&&(f.push(["Tokens in / out",`${(0,$.B4)(d.inputTokens)} / ${(0,$.B4)(d.outputTokens)}`]),f.push(["Cost",(0,$.UK)(d.usdMicros)])),i.push((0,u.tp)(f.map(([h],y)=>({header:h,cell:c(w=>w[y]??"","cell")})),[f.map(h=>h[1])])),d.runs>0&&i.push((0,A.EK)(d)),e.idempotencyKey&&i.push(`Idempotency key ${(0,u.aY)(s(e.idempotencyKey,l.name))}, session ${(0,u.aY)((0,te.Rj)(e.sessionId))}.`);const b=[];if(o?.message&&p&&b.push(`### Message from the hub

${(0,u.OF)(q(o.message,l.message))}`),o?.pending&&e.phase==="PendingApproval"){const h=o.pending.args===void 0?"":`

${(0,u.OF)(q((0,O.D)(o.pending.args,l.approvalArgs),l.approvalArgs),"json")}`,y=o.pending.inboxID?` (approval ${(0,u.aY)(s(o.pending.inboxID,l.name))})`:"";b.push(`### Waiting for approval

Tool ${(0,u.aY)(s(o.pending.tool??"unknown",l.name))} needs a human's approval${y}: on the hub, or with \`command: approve\` and this step's \`approval-id\` output.${h}`)}const S=[],V=(o?.sources??[]).filter(h=>!o?.output?.includes(h));V.length>0&&S.push(Be(V,s,()=>a=!0));const Q=ne(e.structured,()=>a=!0);Q&&b.push(Q);const Z=o?je(o,s):"";Z&&S.push(Z),o&&o.steps.length>0&&S.push(re(o.steps,s,()=>a=!0));function q(h,y){const w=(0,u.Wp)(h,y,`
…(clipped)`);return a||=w.clipped,w.text}c(q,"clipBytesNoting");let P;if(o?.output){const h=J(t.resultFile),y=[...i,...b,...S,h].reduce((Re,Ge)=>Re+(0,u.dp)(Ge)+2,0),w=(0,u.Pu)(o.output,Te,`

…(clipped)`),Le=Math.max(0,r-y-(0,u.dp)(`### Output

`)-1),_=B(w.text,{headingsBelow:3,maxBytes:Le});a||=w.clipped||_.clipped,P=`### Output

${_.markdown||"_(too long for the job summary: see the result file)_"}`}return`${[...i,...a?[J(t.resultFile)]:[],...b,...P?[P]:[],...S].join(`

`)}
`}c(Oe,"renderRunSummary");function ve(e,n){const t=z(e);return t==="succeeded"?n.status==="pass":(t==="failed"||t==="aborted")&&!!e.detail?.message}c(ve,"verdictRepeatsHeading");function z(e){return e.outcome!==void 0?e.outcome:{Succeeded:"succeeded",Failed:"failed",Aborted:"aborted"}[e.phase]}c(z,"outcomeOf");function J(e){return`> [!NOTE]
> Parts of this run were cut to keep the job summary under GitHub's 1 MiB limit: ${e?`the result file ${(0,u.aY)(e)} (output \`result-file\`)`:"the result file (output `result-file`)"} holds all of it.`}c(J,"trimmedNote");function Be(e,n,t){const r=[];let o=0;for(const a of e){const s=`- ${Ne(n(a,l.source))}`;if(o+(0,u.dp)(s)+1>l.sourcesList)break;r.push(s),o+=(0,u.dp)(s)+1}return r.length<e.length&&(t(),r.push(`- … and ${(0,$.B4)(e.length-r.length)} more: the result file lists them all.`)),`### Sources

${r.join(`
`)}`}c(Be,"sourcesSection");function Ne(e){try{const n=new URL(e);if(n.protocol==="https:"||n.protocol==="http:")return`<${n.href.replace(/[<>\\\s]/g,encodeURIComponent)}>`}catch{}return(0,u.mG)(e)}c(Ne,"linkOrText");function Pe(e,n){if(!e||!n)return;const t=Date.parse(n)-Date.parse(e);return Number.isFinite(t)?t:void 0}c(Pe,"spanMs");function Ce(e,n){const t=e.indexOf(`: ${n}`);return t<0?e:`${e.slice(0,t)} (the hub's message is below).${e.slice(t+2+n.length)}`}c(Ce,"withoutHubMessage");function je(e,n){const t=e.children.flatMap(s=>{const i=L.d2.safeParse(s);return i.success?[i.data]:[]});if(t.length===0)return"";const r=t.slice(0,l.children),o=(0,u.tp)([{header:"Run",cell:c(s=>(0,u.aY)(n(s.id??"unknown",l.name)),"cell")},{header:"Agent",cell:c(s=>(0,u.mG)(n(s.agent??"unknown",l.name)),"cell")},{header:"Phase",cell:c(s=>(0,u.mG)(n(s.phase??"unknown",l.name)),"cell")},{header:"Kind",cell:c(s=>(0,u.mG)(n(s.class??s.trigger??"",l.name)),"cell")}],r),a=t.length>r.length?`

… and ${(0,$.B4)(t.length-r.length)} more: the result file lists them all.`:"";return`### Children runs (${(0,$.B4)(t.length)})

${o}${a}`}c(je,"childrenSection")})};export{Fe as id,He as ids,We as modules};
