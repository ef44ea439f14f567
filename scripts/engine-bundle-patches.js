// Part of `npm run build`: patches that scripts/bundle-engine.js applies to the engine bundle's
// text after esbuild has written it. Each one changes how the bundled packages reach each other or
// set themselves up, never what they compute, and each was measured first.
//
// Why: the bundle runs on the thread that runs a Hardhat 3 user's tests, cold, in every test run.
// Its packages are TypeScript compiled to CommonJS, whose `export *` and `export { x } from` become
// getters on each package's exports: every call from one ethereumjs package into another (the EVM
// into @ethereumjs/util's byte helpers, thousands of times a transaction) first calls such a
// getter, and esbuild's ES-module interop adds two more for @noble's functions. Made plain values
// once the module they come from has run, and with @ethereumjs/util's BigInt cache filled as it is
// used, a replay of the Hardhat 3 suite benchmark's 428 requests in fresh Node 22 processes took
// 218 instead of 236 ms from loading the engine to the last answer (medians of 20 alternated
// runs), and its later rounds 94 instead of 102 ms (bench/README.md).
//
// A patch that finds nothing to change leaves the text as it is and reports a count of 0; the
// build (bundle-engine.js) refuses an engine bundle that any patch left unchanged, so an upgrade
// of esbuild, TypeScript's helpers or @ethereumjs/util that moves the text is noticed, not
// silently slower.

/**
 * TypeScript's `__createBinding` (its `export *` and `import * as`): a getter per name. The patch
 * copies the value when the module it comes from has set it, and keeps the getter otherwise (a
 * module still running, in a cycle, has not). The packages never reassign an export after their
 * module has run, so the value read once is the value the getter would return every time.
 */
const starReexports = {
  name: "typescript-star-reexports-as-values",
  pattern: /(var __createBinding=\w+&&\w+\.__createBinding\|\|\(Object\.create\?\(function\(o,m,k,k2\)\{if\(k2===void 0\)k2=k;)/g,
  replacement: "$1{const v=m[k];if(v!==void 0){Object.defineProperty(o,k2,{enumerable:true,value:v});return}}",
};

/**
 * TypeScript's `export { x } from "./y"`: `Object.defineProperty(exports, "x", { enumerable: true,
 * get: function () { return y_1.x; } })`. Routed through `__nativekitReexport` (appended below),
 * which does the same as the patch above.
 */
const namedReexports = {
  name: "typescript-named-reexports-as-values",
  pattern: /Object\.defineProperty\((\w+),"([\w$]+)",\{enumerable:true,get:function\(\)\{return ([\w$]+\.[\w$]+)\}\}\)/g,
  replacement: '__nativekitReexport($1,"$2",()=>$3)',
  helper:
    "function __nativekitReexport(exportsObject,name,read){const value=read();" +
    "Object.defineProperty(exportsObject,name,value===void 0?{enumerable:true,get:read}:{enumerable:true,value})}",
};

/**
 * esbuild's `__toCommonJS`, which a CommonJS package's `require` of an ES module (@noble/hashes,
 * @noble/curves) goes through: a getter per name reading the module's own getter. Called once
 * the module has run (esbuild calls its `init_` first), so the same rule applies.
 */
const esmInterop = {
  name: "esbuild-esm-interop-as-values",
  pattern: /var __toCommonJS=(\w+)=>__copyProps\(__defProp\(\{\},"__esModule",\{value:true\}\),\1\)/g,
  replacement:
    'var __toCommonJS=$1=>{const to=__defProp({},"__esModule",{value:true});for(const key of __getOwnPropNames($1)){const value=$1[key];' +
    "__defProp(to,key,value===void 0?{get:()=>$1[key],enumerable:true}:{value,enumerable:true})}return to}",
};

/**
 * @ethereumjs/util makes 65,536 BigInts (every 1- and 2-byte value) when it loads, for
 * `bytesToBigInt`; that was about 5 ms of every test run's network start. The patch makes each
 * the first time it is asked for: the interpreter asks for the same few (PUSH1 and PUSH2
 * operands) again and again, so they stay cached, and nothing else changes.
 */
const lazyBigIntCache = {
  name: "ethereumjs-util-bigint-cache-filled-as-used",
  pattern:
    /var BIGINT_CACHE=\[\];for\(let i=0;i<=256\*256-1;i\+\+\)\{BIGINT_CACHE\[i\]=BigInt\(i\)\}(var bytesToBigInt=[^]*?)if\((\w+)\.length===4\)\{return BIGINT_CACHE\[(\w+)\[0\]\]\}if\(\2\.length===6\)\{return BIGINT_CACHE\[\3\[0\]\*256\+\3\[1\]\]\}/g,
  replacement:
    "var BIGINT_CACHE=new Array(65536);$1if($2.length===4){const small=$3[0];return BIGINT_CACHE[small]??(BIGINT_CACHE[small]=BigInt(small))}" +
    "if($2.length===6){const small=$3[0]*256+$3[1];return BIGINT_CACHE[small]??(BIGINT_CACHE[small]=BigInt(small))}",
};

/**
 * ethereumjs makes a `debug` logger in the constructor of each trie, state manager, cache and
 * journal, and the state manager remakes its storage tries after every revert: a call's or a
 * snapshot's. Each logger asks whether stderr is a terminal (a system call) and builds its
 * closures. The patch gives each namespace one logger, made the first time. Loggers print only
 * when DEBUG names them; what changes then is the "+N ms" each line shows, counted from the last
 * line of the namespace rather than of the object. In the replay above, with the other patches:
 * 184.1 instead of 190.4 ms to the first round's last answer (medians of 30), later rounds the same.
 */
const loggerPerNamespace = {
  name: "ethereumjs-debug-logger-per-namespace",
  pattern: /this\._debug=\(0,(\w+)\.default\)\("([^"]+)"\)/g,
  replacement: 'this._debug=__nativekitLogger($1.default,"$2")',
  helper:
    "function __nativekitLogger(create,namespace){const made=__nativekitLogger.made??=new Map;" +
    "let logger=made.get(namespace);if(logger===void 0)made.set(namespace,logger=create(namespace));return logger}",
};

const PATCHES = [starReexports, namedReexports, esmInterop, lazyBigIntCache, loggerPerNamespace];

/** Applies every patch to `text`: the patched text, and how many places each patch changed. */
function patchEngineBundle(text) {
  const applied = [];
  let patched = text;
  for (const patch of PATCHES) {
    const count = patched.match(patch.pattern)?.length ?? 0;
    patched = patched.replace(patch.pattern, patch.replacement);
    if (count > 0 && patch.helper !== undefined) patched = `${patched}\n${patch.helper}\n`;
    applied.push({ name: patch.name, count });
  }
  return { text: patched, applied };
}

module.exports = { patchEngineBundle, PATCH_NAMES: PATCHES.map((p) => p.name) };
