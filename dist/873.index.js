var Ee=Object.defineProperty;var c=(C,M)=>Ee(C,"name",{value:M,configurable:!0});const Be=873,Ce=[873],Ne={8873:((C,M,x)=>{x.r(M),x.d(M,{renderRunSummary:c(()=>fe,"renderRunSummary"),warmUp:c(()=>de,"warmUp")});var X=x(8676),o=x(8785),E=x(5110),N=x(4573),z=x(4720);const J=400,K=2e5,_=48,Q=2e4;function V(e){try{const n=new z.JG({gfm:!0,breaks:!1}),t=n.blockTokens(e,n.tokens);for(const s of n.inlineQueue)n.state.inRawBlock=!1,s.src.length<=Q&&q(s.src)<=J?n.inlineTokens(s.src,s.tokens):s.tokens.push({type:"text",raw:s.src,text:s.src,escaped:!1});return n.inlineQueue=[],t}catch{return}}c(V,"lexBlocks");function Z(e){return e.replace(/^[ \t>*+\-.)\d]{49,}/gm,n=>n.slice(0,_))}c(Z,"boundNesting");function q(e){let n=0;for(let t=0;t<e.length;t++){const s=e.charCodeAt(t);(s===42||s===95||s===126||s===91||s===96)&&n++}return n}c(q,"countDelimiters");const ee=8,P="…(clipped)";function R(e,n={}){const t={headingFloor:Math.min(6,Math.max(1,(n.headingsBelow??0)+1)),depth:0},s=n.maxBytes??Number.POSITIVE_INFINITY,r=Z((0,o.Pu)(e,K,"").text.replace(/\r\n?/g,`
`).replace(/\u0000/g,"�")),u=V(r);if(!u)return v(r,s);const a=[];let l=0;for(let g=0;g<u.length;g++){const f=u[g],h=L(f,t);if(!h)continue;const m=h.join(`
`),p=N.Buffer.byteLength(m,"utf8")+2;if(l+p<=s){a.push(m),l+=p;continue}const T=s-l-2;return T>200&&a.push(v(f.raw,T).markdown),{markdown:a.join(`

`),clipped:!0}}return{markdown:a.join(`

`),clipped:!1}}c(R,"untrustedMarkdown");function v(e,n){let t=e,s=!1;const r=64;return N.Buffer.byteLength(t,"utf8")+r>n&&(t=(0,o.Wp)(t,Math.max(0,n-r-P.length-1),"").text+`
${P}`,s=!0),{markdown:(0,o.OF)(t),clipped:s}}c(v,"fitCode");function L(e,n){if(n.depth>ee)return j(e.raw.replace(/\n+$/,""));switch(e.type){case"space":case"def":return;case"heading":{const t=e,s=Math.min(6,Math.max(t.depth,n.headingFloor)),r=G(b(t.tokens,n));return[`${"#".repeat(s)} ${r}`.trimEnd()]}case"paragraph":return S(b(e.tokens,n));case"text":{const t=e;return S(t.tokens?b(t.tokens,n):w(t.text))}case"code":{const t=e;return j(t.text,t.lang??"")}case"html":return S(w(e.text).replace(/\n+$/,"").replace(/\n/g,`\\
`));case"hr":return["___"];case"blockquote":return O(e.tokens,D(n)).map(s=>s===""?">":`> ${s}`);case"list":return te(e,n);case"table":return re(e,n);default:return S(w(e.raw))}}c(L,"renderBlock");function D(e){return{...e,depth:e.depth+1}}c(D,"nested");function O(e,n,t=!1){const s=[];for(const r of e){const u=L(r,n);u&&(s.length>0&&!(t&&ne(r))&&s.push(""),s.push(...u))}return s}c(O,"renderBlocks");function ne(e){if(e.type==="code")return!0;if(e.type!=="list")return!1;const n=e;return!n.ordered||Number(n.start)===1||n.start===""}c(ne,"interruptsParagraph");function S(e){const n=e.split(`
`).map(t=>t.replace(/^[ \t]+/,"").replace(/^[-=]/,"\\$&").replace(/^(\d{1,9})([.)])/,"$1\\$2"));for(;n.length>0&&n[n.length-1]?.trim()==="";)n.pop();return n.length>0?n:void 0}c(S,"paragraphLines");function te(e,n){const t=n.listMarker==="-"?"*":"-",s=Number.isSafeInteger(Number(e.start))?Math.min(999999999,Math.max(0,Number(e.start))):1,r={...D(n),listMarker:t},u=[];return e.items.forEach((a,l)=>{const g=e.ordered?`${s+l}.`:t,f=a.task?a.checked?"[x] ":"[ ] ":"",h=O(a.tokens.filter(y=>y.type!=="checkbox"),r,!e.loose),m=" ".repeat(g.length+1);l>0&&e.loose&&u.push("");const[p="",...T]=h.length>0?h:[""];u.push(`${g} ${f}${p}`.trimEnd());for(const y of T)u.push(y===""?"":m+y)}),u}c(te,"renderList");function re(e,n){const t={...n,inTable:!0},s=c(a=>G(b(a,t))||" ","cell"),r=c(a=>`| ${a.map(l=>s(l.tokens)).join(" | ")} |`,"row"),u=`| ${e.align.map(a=>a==="right"?"---:":a==="center"?":---:":a==="left"?":---":"---").join(" | ")} |`;return[r(e.header),u,...e.rows.map(r)]}c(re,"renderTable");function j(e,n){return(0,o.OF)(e,n).split(`
`)}c(j,"codeBlock");function b(e,n){return e?e.map(t=>se(t,n)).join(""):""}c(b,"renderInline");function se(e,n){switch(e.type){case"text":{const t=e;return t.tokens?b(t.tokens,n):w(t.text)}case"escape":return w(e.text);case"strong":return I("**",b(e.tokens,n));case"em":return I("_",b(e.tokens,n));case"del":return I("~~",b(e.tokens,n));case"codespan":return oe(e.text,n);case"br":return`\\
`;case"link":{const t=e;return Y(t.href,b(t.tokens,n)||w(t.href))}case"image":{const t=e;return Y(t.href,`image: ${w(t.text||t.href)}`)}case"checkbox":return"";case"html":return w(e.text);default:return w(e.raw)}}c(se,"inlineToken");function I(e,n){return n.trim()===""?n:`${e}${n}${e}`}c(I,"wrap");function oe(e,n){return n.inTable?(0,o.aY)(e).replace(/\|/g,"\\|"):(0,o.aY)(e)}c(oe,"codeSpan");function Y(e,n){const t=ae(e);return t?`[${n.replace(/\n/g," ")}](<${t}>)`:n}c(Y,"linkTo");function ae(e){let n;try{n=new URL(U(e).trim())}catch{return}if(!(n.protocol!=="https:"&&n.protocol!=="http:"&&n.protocol!=="mailto:"))return n.href.replace(/[<>\\\s]/g,t=>`%${t.charCodeAt(0).toString(16).toUpperCase().padStart(2,"0")}`)}c(ae,"safeUrl");function w(e){return(0,o.ZV)(U(e)).replace(/[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/g," ").replace(/[\\`*_{}[\]()#+!~|&<>@]/g,n=>ce[n]??`\\${n}`)}c(w,"escapeText");const ce={"&":"&amp;","<":"&lt;",">":"&gt;","@":`@${o.pe}`};function G(e){return e.replace(/\\\n/g," ").replace(/\n/g," ").trim()}c(G,"oneLine");function U(e){return e.includes("&")?e.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|amp|lt|gt|quot|apos|nbsp);/gi,(n,t)=>{const s=t.toLowerCase(),r=s.startsWith("#x")?parseInt(s.slice(2),16):s.startsWith("#")?Number(s.slice(1)):void 0;return r!==void 0?r>0&&r<=1114111&&(r<55296||r>57343)?String.fromCodePoint(r):"�":ue[s]??n}):e}c(U,"decodeEntities");const ue={amp:"&",lt:"<",gt:">",quot:'"',apos:"'",nbsp:" "},ie=2e5,i={name:200,verdict:2e3,message:64*1024,approvalArgs:64*1024,sourcesList:32*1024,source:2e3,stepsTable:128*1024,stepTool:200,stepError:500,stepJson:200,stepCalls:32*1024,children:50},le={pass:"✅",warn:"⚠️",fail:"❌"},pe=`## A

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
`;function de(){R(pe)}c(de,"warmUp");function fe(e,n,t={}){const s=t.budget??o.Gh,r=e.detail;let u=!1;const a=c((d,k)=>{const $=(0,o.Pu)(d,k," …(clipped)");return u||=$.clipped,$.text},"clip"),l=[];l.push(`## ${le[n.status]} Agent run: ${(0,o.mG)(a(e.agent,i.name))} — ${(0,o.mG)(a(e.phase,i.name))}`);const g=!!r?.message&&e.outcome!=="succeeded";he(e)||l.push((0,o.mG)(a(g?xe(n.message,r?.message??""):n.message,i.verdict))),e.reused&&l.push(`> [!NOTE]
> The hub returned an existing run for this idempotency key (a re-run on the same commit attaches to the first run instead of starting another).`);const f=r?.durationMS??ke(r?.startedAt,r?.finishedAt),h=[["Run",(0,o.aY)(a(e.runId,i.name))],["Phase",`**${(0,o.mG)(a(e.phase,i.name))}**${e.settled?"":" (not settled)"}`],["Duration",(0,o.a3)(f)],["Waited",(0,o.a3)(e.waitedMs)]];r&&(h.push(["Tokens in / out",`${(0,o.B4)(r.inputTokens)} / ${(0,o.B4)(r.outputTokens)}`]),h.push(["Cost",(0,o.UK)(r.usdMicros)])),l.push((0,o.tp)(h.map(([d],k)=>({header:d,cell:c($=>$[k]??"","cell")})),[h.map(d=>d[1])])),e.idempotencyKey&&l.push(`Idempotency key ${(0,o.aY)(a(e.idempotencyKey,i.name))}, session ${(0,o.aY)(a(e.sessionId,i.name))}.`);const m=[];if(r?.message&&g&&m.push(`### Message from the hub

${(0,o.OF)(H(r.message,i.message))}`),r?.pending&&e.phase==="PendingApproval"){const d=r.pending.args===void 0?"":`

${(0,o.OF)(H((0,E.D)(r.pending.args,i.approvalArgs),i.approvalArgs),"json")}`,k=r.pending.inboxID?` (approval ${(0,o.aY)(a(r.pending.inboxID,i.name))})`:"";m.push(`### Waiting for approval

Tool ${(0,o.aY)(a(r.pending.tool??"unknown",i.name))} needs a human's approval${k}: on the hub, or with \`command: approve\` and this step's \`approval-id\` output.${d}`)}const p=[],T=(r?.sources??[]).filter(d=>!r?.output?.includes(d));T.length>0&&p.push(me(T,a,()=>u=!0));const y=r?Te(r,a):"";y&&p.push(y),r&&r.steps.length>0&&p.push(ge(r.steps,a,()=>u=!0));function H(d,k){const $=(0,o.Wp)(d,k,`
…(clipped)`);return u||=$.clipped,$.text}c(H,"clipBytesNoting");let B;if(r?.output){const d=F(t.resultFile),k=[...l,...m,...p,d].reduce((Me,Se)=>Me+(0,o.dp)(Se)+2,0),$=(0,o.Pu)(r.output,ie,`

…(clipped)`),ye=Math.max(0,s-k-(0,o.dp)(`### Output

`)-1),W=R($.text,{headingsBelow:3,maxBytes:ye});u||=$.clipped||W.clipped,B=`### Output

${W.markdown||"_(too long for the job summary: see the result file)_"}`}return`${[...l,...u?[F(t.resultFile)]:[],...m,...B?[B]:[],...p].join(`

`)}
`}c(fe,"renderRunSummary");function he(e){return e.outcome==="succeeded"?!0:(e.outcome==="failed"||e.outcome==="aborted")&&!!e.detail?.message}c(he,"verdictRepeatsHeading");function F(e){return`> [!NOTE]
> Parts of this run were cut to keep the job summary under GitHub's 1 MiB limit: ${e?`the result file ${(0,o.aY)(e)} (output \`result-file\`)`:"the result file (output `result-file`)"} holds all of it.`}c(F,"trimmedNote");function me(e,n,t){const s=[];let r=0;for(const u of e){const a=`- ${we(n(u,i.source))}`;if(r+(0,o.dp)(a)+1>i.sourcesList)break;s.push(a),r+=(0,o.dp)(a)+1}return s.length<e.length&&(t(),s.push(`- … and ${(0,o.B4)(e.length-s.length)} more: the result file lists them all.`)),`### Sources

${s.join(`
`)}`}c(me,"sourcesSection");function ge(e,n,t){const s=[];let r=0;for(const[g,f]of e.entries()){const h={tool:n(f.tool,i.stepTool),outcome:n(f.outcome,i.name),error:f.error&&n(f.error,i.stepError)},m={step:{...f,...h},number:g+1},p=(0,o.dp)(A([m]))-be;if(r+p>i.stepsTable)break;s.push(m),r+=p}let u=A(s);const a=e.length-s.length;a>0&&(t(),u+=`

… and ${(0,o.B4)(a)} more ${a===1?"step":"steps"}: the result file lists them all.`);const l=$e(s,t);return l&&(u+=`

${l}`),(0,o.zH)(`Steps (${e.length})`,u)}c(ge,"stepsSection");function $e(e,n){const t=[];let s=0;for(const{step:r,number:u}of e){const a=[];if(r.args!==void 0&&a.push(`arguments ${(0,o.aY)((0,E.D)(r.args,i.stepJson,"compact"))}`),r.result!==void 0&&a.push(`result ${(0,o.aY)((0,E.D)(r.result,i.stepJson,"compact"))}`),a.length===0)continue;const l=`- ${u}: ${a.join(" → ")}`;if(s+(0,o.dp)(l)+1>i.stepCalls){n(),t.push("- … the result file holds the rest.");break}t.push(l),s+=(0,o.dp)(l)+1}return t.length>0?`Calls:

${t.join(`
`)}`:""}c($e,"stepCalls");function A(e){return(0,o.tp)([{header:"#",cell:c(n=>String(n.number),"cell"),align:"right"},{header:"Tool",cell:c(n=>(0,o.aY)(n.step.tool),"cell")},{header:"Outcome",cell:c(n=>(0,o.mG)(n.step.outcome)+(n.step.error?` — ${(0,o.mG)(n.step.error)}`:""),"cell")},{header:"Duration",cell:c(n=>(0,o.a3)(n.step.durationMS),"cell"),align:"right"}],e)}c(A,"stepsTable");const be=(0,o.dp)(A([]));function we(e){try{const n=new URL(e);if(n.protocol==="https:"||n.protocol==="http:")return`<${n.href.replace(/[<>\\\s]/g,encodeURIComponent)}>`}catch{}return(0,o.mG)(e)}c(we,"linkOrText");function ke(e,n){if(!e||!n)return;const t=Date.parse(n)-Date.parse(e);return Number.isFinite(t)?t:void 0}c(ke,"spanMs");function xe(e,n){const t=e.indexOf(`: ${n}`);return t<0?e:`${e.slice(0,t)} (the hub's message is below).${e.slice(t+2+n.length)}`}c(xe,"withoutHubMessage");function Te(e,n){const t=e.children.flatMap(a=>{const l=X.d2.safeParse(a);return l.success?[l.data]:[]});if(t.length===0)return"";const s=t.slice(0,i.children),r=(0,o.tp)([{header:"Run",cell:c(a=>(0,o.aY)(n(a.id??"unknown",i.name)),"cell")},{header:"Agent",cell:c(a=>(0,o.mG)(n(a.agent??"unknown",i.name)),"cell")},{header:"Phase",cell:c(a=>(0,o.mG)(n(a.phase??"unknown",i.name)),"cell")},{header:"Kind",cell:c(a=>(0,o.mG)(n(a.class??a.trigger??"",i.name)),"cell")}],s),u=t.length>s.length?`

… and ${(0,o.B4)(t.length-s.length)} more: the result file lists them all.`:"";return`### Children runs (${(0,o.B4)(t.length)})

${r}${u}`}c(Te,"childrenSection")})};export{Be as id,Ce as ids,Ne as modules};
