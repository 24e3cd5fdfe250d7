// ctest's json_schema: checks docs/context-pack.schema.json (the JSON output's contract).
//  1. the schema is valid JSON Schema draft 2020-12 (Ajv's meta-schema, strict mode);
//  2. every golden JSON file (tests/golden/*.json) validates;
//  3. a fixture repository built here with the git CLI (moved, touched, renamed, deleted, new,
//     binary, long lines, symbols with callers) is packed by the real binary in every mode with
//     `--format json`, plus once through `context-pack mcp` (structuredContent); every document
//     validates, its exit_status equals the process's exit code, and its `window` indices point
//     at windows that list the anchor's row;
//  4. the documents together exercise every status, kind and nullable field both ways, so the
//     schema is not checked against outputs that skip its branches;
//  5. mutated documents (a renamed key, a wrong status, a string for an integer, ...) must FAIL,
//     so the test cannot pass vacuously.
// The specs it writes for the fixture validate against docs/spec.schema.json too (spec.mjs,
// ctest's spec_schema, checks that schema).
// Usage: node validate.mjs PATH/TO/context-pack
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import Ajv2020 from 'ajv/dist/2020.js';

if (process.argv.length !== 3) {
  console.error('usage: node validate.mjs PATH/TO/context-pack');
  process.exit(2);
}
const bin = path.resolve(process.argv[2]);
const here = path.dirname(fileURLToPath(import.meta.url));
const source = path.resolve(here, '..', '..');
const schemaPath = path.join(source, 'docs', 'context-pack.schema.json');
const goldenDir = path.join(source, 'tests', 'golden');

let failures = 0;
function ok(what) {
  console.log(`ok - ${what}`);
}
function fail(what, detail) {
  failures += 1;
  console.log(`FAIL - ${what}`);
  if (detail) console.log(detail.replace(/^/gm, '    '));
}

// ---- 1. the schema itself ---------------------------------------------------------------------
const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'));
// Strict mode on top of the meta-schema: unknown keywords (a typo such as "requried") and
// `required` names missing from `properties` are errors. strictTypes is off: it asks for a
// `type` beside every keyword in the if/then branches, which restate no type on purpose.
const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true });
assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema',
  'the schema must declare draft 2020-12');
if (!ajv.validateSchema(schema)) {
  fail('schema is valid draft 2020-12', ajv.errorsText(ajv.errors, { separator: '\n' }));
  process.exit(1);
}
const validate = ajv.compile(schema);
ok('schema is valid JSON Schema draft 2020-12 and compiles in strict mode');

function check(doc, what) {
  if (validate(doc)) return true;
  fail(`${what} validates`, ajv.errorsText(validate.errors, { separator: '\n' }));
  return false;
}

// Cross-references the schema cannot say: window indices and rows.
function checkReferences(doc, what) {
  const problems = [];
  doc.specs.forEach((spec, s) => {
    const rows = new Set(spec.anchors.map((a) => a.row));
    spec.anchors.forEach((a, i) => {
      if (a.window === null) return;
      const w = spec.windows[a.window];
      if (!w) problems.push(`specs[${s}].anchors[${i}].window ${a.window} is past windows[]`);
      else if (!w.rows.includes(a.row))
        problems.push(`specs[${s}].anchors[${i}] (row ${a.row}) is not in windows[${a.window}].rows`);
    });
    spec.windows.forEach((w, i) => {
      for (const r of w.rows) {
        if (!rows.has(r)) problems.push(`specs[${s}].windows[${i}].rows names row ${r}, no anchor has it`);
        const a = spec.anchors.find((x) => x.row === r);
        if (a && a.window !== i) problems.push(`specs[${s}].windows[${i}] holds row ${r}, whose window is ${a.window}`);
      }
    });
  });
  // SPEC §5: 1 when some anchor is GONE or UNRESOLVED or misses its symbol.
  const bad = doc.specs.some((spec) => spec.anchors.some((a) =>
    a.status === 'GONE' || a.status === 'UNRESOLVED' || a.symbol_found === false));
  // Rows a budget left out (rows_more) may hold the anchor that makes it 1.
  const partial = doc.specs.some((spec) => spec.rows_more);
  if (partial ? doc.exit_status < (bad ? 1 : 0) : doc.exit_status !== (bad ? 1 : 0))
    problems.push(`exit_status ${doc.exit_status}, but the anchors say ${bad ? 1 : 0}`);
  if (problems.length) fail(`${what}: window references and exit_status`, problems.join('\n'));
}

// ---- 2. golden files -------------------------------------------------------------------------
const goldens = fs.readdirSync(goldenDir).filter((f) => f.endsWith('.json')).sort();
assert.ok(goldens.length > 0, `no golden JSON files in ${goldenDir}`);
const documents = [];  // [what, doc]
for (const f of goldens) {
  const doc = JSON.parse(fs.readFileSync(path.join(goldenDir, f), 'utf8'));
  if (check(doc, `golden ${f}`)) ok(`golden ${f} validates`);
  checkReferences(doc, `golden ${f}`);
  documents.push([`golden ${f}`, doc]);
}

// ---- 3. the fixture repository ----------------------------------------------------------------
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-schema-'));
const repo = path.join(dir, 'repo');
fs.mkdirSync(repo);
const gitEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  // No automatic gc or maintenance, which git 2.46 and later detach from the command.
  GIT_CONFIG_COUNT: '2',
  GIT_CONFIG_KEY_0: 'gc.auto',
  GIT_CONFIG_VALUE_0: '0',
  GIT_CONFIG_KEY_1: 'maintenance.auto',
  GIT_CONFIG_VALUE_1: 'false',
  GIT_AUTHOR_NAME: 'Fixture',
  GIT_AUTHOR_EMAIL: 'fixture@example.invalid',
  GIT_COMMITTER_NAME: 'Fixture',
  GIT_COMMITTER_EMAIL: 'fixture@example.invalid',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};
const git = (...args) => execFileSync('git', args, { cwd: repo, env: gitEnv, encoding: 'utf8' }).trim();
const write = (rel, content) => {
  fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
  fs.writeFileSync(path.join(repo, rel), content);
};
const read = (rel) => fs.readFileSync(path.join(repo, rel), 'utf8');
// The 1-based number of the line holding `needle` in `text`.
const lineOf = (text, needle) => {
  const i = text.split('\n').findIndex((l) => l.includes(needle));
  assert.ok(i >= 0, `fixture: '${needle}' not found`);
  return i + 1;
};
const commit = (message) => {
  git('add', '-A');
  git('commit', '-q', '-m', message);
  return git('rev-parse', 'HEAD');
};

const mainC = [
  '#include <stdio.h>',
  '#include "strings.h"',
  '',
  'static int verbose;',
  '',
  '/* parse the command line */',
  'int parse_args(int argc, char **argv) {',
  '    verbose = argc > 1;',
  '    (void)argv;',
  '    return 0;',
  '}',
  '',
  '/* run it */',
  'int run(void) {',
  '    int total = 0;',
  '    total += widget(1);',
  '    total += widget(2);',
  '    return total;',
  '}',
  '',
  '/* dead code, deleted later */',
  'static int dead_one(void) { return 1; }',
  'static int dead_two(void) { return 2; }',
  '',
  '/* the end */',
  'int main(int argc, char **argv) {',
  '    if (parse_args(argc, argv)) return 2;',
  '    return run();',
  '}',
  '',
].join('\n');
const numbered = (prefix, n) => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}\n`).join('');
const binary = (seed) => Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, seed, 0x0d, 0x0a, 0x00, 0xff, seed]);

git('init', '-q');
// The base commit.
write('README.txt', 'fixture\nline two\nline three\n');
write('src/main.c', mainC);
write('src/util.c', 'char *trim(char *s) {\n    while (*s == \' \') ++s;\n    return s;\n}\n\nint util_version = 1;\n');
write('src/old.c', 'int old_thing;\nint old_other;\n');
write('src/net.c', 'int net_open(void) {\n    return widget(0);\n}\n\nint net_close(void) {\n    return 0;\n}\n');
write('include/widget.h', 'int widget(int n);\n');
write('big.c', numbered('big line', 200).replace('big line 12\n', `big line 12 ${'x'.repeat(400)}\n`));
for (const name of ['a', 'b', 'c', 'd', 'e', 'f'])
  write(`lib/${name}.c`, Array.from({ length: 10 }, (_, i) => `use widget(${i + 1}) in ${name}\n`).join(''));
write('lib/long.c', `int x = parse_args(1, 0); /* ${'y'.repeat(400)} */\nchar *t = trim(" a");\n`);
fs.mkdirSync(path.join(repo, 'assets'));
fs.writeFileSync(path.join(repo, 'assets/logo.bin'), binary(1));
fs.writeFileSync(path.join(repo, 'assets/same.bin'), binary(7));
const base = commit('base');

// The start commit (for --since): main.c moves down, util.c is renamed, old.c deleted, the
// binary changed.
write('src/main.c', mainC.replace('#include <stdio.h>\n', '#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <errno.h>\n'));
git('mv', 'src/util.c', 'src/strings.c');
git('rm', '-q', 'src/old.c');
fs.writeFileSync(path.join(repo, 'assets/logo.bin'), binary(2));
const start = commit('start');

// HEAD: run() edited, the dead code deleted, strings.c edited, cache.c created.
write('src/main.c', read('src/main.c')
  .replace('    total += widget(2);\n', '    total += widget(2) * 2;\n    total += widget(3);\n')
  .replace('static int dead_one(void) { return 1; }\nstatic int dead_two(void) { return 2; }\n', ''));
write('src/strings.c', read('src/strings.c').replace("while (*s == ' ') ++s;", "while (*s == ' ' || *s == '\\t') ++s;"));
write('src/cache.c', 'int cache_size;\nint cache_used;\nint cache_hits;\n');
const head = commit('head');

// The working tree: parse_args edited (unstaged), net.c renamed without git (unstaged delete
// plus untracked file), an untracked new file.
write('src/main.c', read('src/main.c').replace('    (void)argv;\n', '    (void)argv; /* unused */\n'));
fs.renameSync(path.join(repo, 'src/net.c'), path.join(repo, 'src/network.c'));
write('src/fresh.c', 'int fresh;\n');
// A bare clone: no working tree, so the default target is HEAD.
const bare = path.join(dir, 'bare.git');
execFileSync('git', ['clone', '-q', '--bare', repo, bare], { env: gitEnv });

// ---- the specs --------------------------------------------------------------------------------
const loc = (p, needle, last, symbol) => {
  const text = git('show', `${base}:${p}`);
  const line = lineOf(text, needle);
  const l = { path: p, line, end_line: last ? lineOf(text, last) : line };
  if (symbol) l.symbol = symbol;
  return l;
};
// Each anchor says which outcome it is there for.
const plan = { id: 'schema-fixture.r1', base };
plan.file_changes = [
  { location: loc('src/main.c', 'int parse_args', 'return 0;', 'parse_args'),
    change: 'parse --verbose (MOVED at HEAD, TOUCHED in the working tree)' },
  { location: loc('src/main.c', 'int run(void)', 'return total;', 'run'), change: 'sum more widgets (TOUCHED)' },
  { location: loc('src/util.c', 'char *trim', 'return s;', 'trim'), change: 'trim tabs (TOUCHED+RENAMED)' },
  { location: loc('src/old.c', 'int old_thing', 'int old_other'), change: 'old code (GONE)' },
  { location: { path: 'src/cache.c', line: 1, end_line: 3 }, change: 'the cache (NEW, present at HEAD)' },
  { location: { path: 'src/planned.c', line: 1 }, change: 'a file to create (NEW, not yet)' },
  { location: { path: 'assets/logo.bin', line: 1 }, change: 'the logo (binary, changed: UNRESOLVED)' },
  { location: { path: 'big.c', line: 10, end_line: 150 }, change: 'over the 100-line window cap, with a long line' },
  { location: loc('src/main.c', 'dead_one', 'dead_two'), change: 'the dead code (TOUCHED, lines_deleted)' },
  { location: loc('src/net.c', 'int net_open', 'int net_close', 'net_open'), change: 'renamed in the working tree only' },
  { location: { path: 'src/fresh.c', line: 1 }, change: 'untracked in the working tree (NEW)' },
];
plan.reads = [
  { location: { path: 'README.txt', line: 1, end_line: 2 }, why: 'SAME' },
  { location: { path: 'assets/same.bin', line: 1 }, why: 'binary, unchanged: SAME, no lines shown' },
  { location: { ...loc('src/main.c', 'int main(', 'return run();'), symbol: 'no_such_symbol' }, why: 'SYMBOL_MISSING' },
  { location: { path: 'README.txt', line: 400 }, why: 'past the end (UNRESOLVED)' },
  { location: { path: 'README.txt', line: 2, end_line: 1 }, why: 'end_line < line (UNRESOLVED)' },
  { location: { path: '../outside.c', line: 1 }, why: 'outside the repository (UNRESOLVED)' },
  { location: loc('include/widget.h', 'int widget', null, 'widget'), why: 'many callers: per-file counts' },
];
const specFile = path.join(dir, 'plan.json');
fs.writeFileSync(specFile, JSON.stringify(plan, null, 2));

const missingBase = '0123456789abcdef0123456789abcdef01234567';
const unresolvedFile = path.join(dir, 'unresolved.json');
fs.writeFileSync(unresolvedFile, JSON.stringify({
  id: 'unresolved-base.r1',
  base: missingBase,
  file_changes: [{ location: { path: 'src/main.c', line: 1, symbol: 'stdio' }, change: 'base not here' }],
  reads: [{ location: { path: 'README.txt', line: 1 }, why: 'base not here' }],
}));

// A batch drift report: one spec a line, each with its own base and target.
const drift = [
  { id: 'drift.start', base, target: start, file_changes: plan.file_changes.slice(0, 4), reads: plan.reads.slice(0, 1) },
  { id: 'drift.head', base, target: 'HEAD', file_changes: plan.file_changes.slice(0, 3), reads: plan.reads.slice(6) },
  { id: 'drift.worktree', base: start, file_changes: [{ location: { path: 'src/strings.c', line: 1, end_line: 4, symbol: 'trim' }, change: 'x' }] },
  { id: 'drift.missing-base', base: missingBase, target: 'HEAD', file_changes: [{ location: { path: 'README.txt', line: 1 }, change: 'x' }] },
  { id: 'drift.missing-target', base, target: missingBase, reads: [{ location: { path: 'README.txt', line: 1 }, why: 'x' }] },
  { id: 'drift.short-base', base: base.slice(0, 10), target: head, reads: [{ location: { path: 'README.txt', line: 1, end_line: 3 }, why: 'x' }] },
];
const driftFile = path.join(dir, 'drift.jsonl');
fs.writeFileSync(driftFile, drift.map((s) => JSON.stringify(s)).join('\n') + '\n');

// These specs are fixtures too: each is one the input's contract, docs/spec.schema.json,
// allows (tests/schema/spec.mjs checks that schema against the parser).
{
  const specSchema = JSON.parse(fs.readFileSync(path.join(source, 'docs', 'spec.schema.json'), 'utf8'));
  const validateSpec = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }).compile(specSchema);
  const specs = [['plan.json', specFile], ['unresolved.json', unresolvedFile]].map(([what, file]) =>
    [what, JSON.parse(fs.readFileSync(file, 'utf8'))]);
  drift.forEach((s, i) => specs.push([`drift.jsonl:${i + 1}`, s]));
  for (const [what, s] of specs) {
    if (validateSpec(s)) ok(`spec ${what} validates against docs/spec.schema.json`);
    else fail(`spec ${what} validates against docs/spec.schema.json`, ajv.errorsText(validateSpec.errors, { separator: '\n' }));
  }
}

// ---- runs ---------------------------------------------------------------------------------------
const runs = [
  ['default (working tree)', [specFile]],
  ['--target HEAD', ['--target', 'HEAD', specFile]],
  ['--at-base', ['--at-base', specFile]],
  ['--since start', ['--since', start, specFile]],
  ['--since HEAD (nothing edited)', ['--since', 'HEAD', '--target', 'HEAD', specFile]],
  ['--table', ['--table', specFile]],
  ['--history', ['--history', specFile]],
  ['--history --target HEAD', ['--history', '--target', 'HEAD', specFile]],
  // `--only 2 plan.json` would take plan.json as a second --only value (CLI11 vector option).
  ['--only 2', [specFile, '--only', '2']],
  ['--only 1 --only reads[0] --target HEAD', ['--only', '1', '--only', 'reads[0]', '--target', 'HEAD', specFile]],
  ['--context 0', ['--context', '0', specFile]],
  ['--max-lines 20', ['--max-lines', '20', specFile]],
  // The caps MCP applies by default: its structuredContent is these documents (below).
  ['--target HEAD --max-lines 1500 --max-tokens 25000', ['--target', 'HEAD', '--max-lines', '1500', '--max-tokens', '25000', specFile]],
  ['several specs --table --max-lines 1500 --max-tokens 25000', ['--table', '--max-lines', '1500', '--max-tokens', '25000', driftFile]],
  ['--max-lines 20 --max-tokens 25000', ['--max-lines', '20', '--max-tokens', '25000', specFile]],
  // A budget that leaves the code out, then rows.
  ['--max-tokens 1000', ['--max-tokens', '1000', specFile]],
  ['several specs --max-tokens 1000', ['--max-tokens', '1000', driftFile]],
  ['ad hoc --anchor', ['--base', base, '--anchor', `src/main.c:${plan.file_changes[0].location.line}-${plan.file_changes[0].location.end_line}@parse_args`,
    '--anchor', 'src/old.c:1', '--anchor', 'big.c:5']],
  ['several specs (.jsonl, per-spec targets)', [driftFile]],
  ['several specs --table', ['--table', driftFile]],
  ['two spec files', [specFile, unresolvedFile]],
  ['UNRESOLVED base', [unresolvedFile]],
  ['spec on stdin', ['-'], fs.readFileSync(specFile, 'utf8')],
  ['-C from outside the repository', ['-C', repo, specFile], undefined, dir],
  ['a bare repository (default target HEAD)', ['-C', bare, specFile], undefined, dir],
];

const runDir = path.join(dir, 'out');
fs.mkdirSync(runDir);
runs.forEach(([what, args, input, cwd], i) => {
  const argv = [...args, '--format', 'json'];
  const r = spawnSync(bin, argv, {
    cwd: cwd ?? repo,
    input,
    encoding: 'utf8',
    env: { ...process.env, LC_ALL: 'C', NO_COLOR: '1' },
    maxBuffer: 64 << 20,
  });
  const name = `${String(i).padStart(2, '0')}.json`;
  fs.writeFileSync(path.join(runDir, name), r.stdout ?? '');
  if (r.error || (r.status !== 0 && r.status !== 1)) {
    fail(`${what}: runs`, `context-pack ${argv.join(' ')}\nexit ${r.status}${r.error ? ` (${r.error})` : ''}\n${r.stderr}`);
    return;
  }
  let doc;
  try {
    doc = JSON.parse(r.stdout);
  } catch (e) {
    fail(`${what}: prints one JSON document`, `${e}`);
    return;
  }
  if (doc.exit_status !== r.status)
    fail(`${what}: exit_status matches the exit code`, `exit_status ${doc.exit_status}, exit code ${r.status}`);
  if (check(doc, what)) ok(`${what} validates (exit ${r.status}, out/${name})`);
  checkReferences(doc, what);
  documents.push([what, doc]);
});

// --format jsonl: each line validates as a jsonl_line; the spec lines are the document's
// specs, in order, and the end line carries its exit status and the batch summary.
const validateLine = ajv.compile({ $schema: schema.$schema, $defs: schema.$defs, $ref: '#/$defs/jsonl_line' });
runs.forEach(([what, args, input, cwd]) => {
  const doc = documents.find(([w]) => w === what)?.[1];
  if (!doc) return;
  // jsonl streams each spec whole as it is resolved: --max-lines cuts only the document,
  // and --max-tokens is refused with it.
  if (args.includes('--max-lines') || args.includes('--max-tokens')) return;
  const argv = [...args, '--format', 'jsonl'];
  const r = spawnSync(bin, argv, {
    cwd: cwd ?? repo, input, encoding: 'utf8',
    env: { ...process.env, LC_ALL: 'C', NO_COLOR: '1' }, maxBuffer: 64 << 20,
  });
  const name = `${what} --format jsonl`;
  let lines;
  try {
    lines = (r.stdout ?? '').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
  } catch (e) {
    fail(`${name}: one JSON value a line`, `${e}`);
    return;
  }
  const bad = lines.map((l, i) => [i, validateLine(l) ? null : ajv.errorsText(validateLine.errors)]).filter(([, e]) => e);
  if (bad.length) {
    fail(`${name}: every line validates`, bad.map(([i, e]) => `line ${i + 1}: ${e}`).join('\n'));
    return;
  }
  try {
    const end = lines.at(-1);
    assert.equal(end.type, 'end');
    assert.equal(end.exit_status, r.status);
    assert.equal(end.exit_status, doc.exit_status);
    if (doc.summary) assert.deepStrictEqual(end.summary, doc.summary);
    const specs = lines.slice(0, -1).map(({ type, format_version, ...spec }) => spec);
    assert.deepStrictEqual(specs, doc.specs);
    ok(`${name}: ${lines.length} lines validate and hold the document's specs and summary`);
  } catch (e) {
    fail(`${name}: the lines hold the document`, e.message.slice(0, 2000));
  }
});

// The MCP server's structuredContent is the same document. The server reads only inside the
// client's roots: this client declares the fixture's folder, and answers the server's first
// roots/list (sent once it is initialized) with it.
{
  const messages = [
    { jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: { roots: {} }, clientInfo: { name: 'schema-test', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 'context-pack:roots/list:1', result: { roots: [{ uri: pathToFileURL(dir).href }] } },
    { jsonrpc: '2.0', id: 2, method: 'tools/call',
      params: { name: 'context_pack', arguments: { spec: specFile, target: 'HEAD', full: true } } },
    { jsonrpc: '2.0', id: 3, method: 'tools/call',
      params: { name: 'context_pack', arguments: { spec: driftFile, table_only: true } } },
    { jsonrpc: '2.0', id: 4, method: 'tools/call',
      params: { name: 'context_pack', arguments: { spec: specFile, max_lines: 20, full: true } } },
  ];
  const r = spawnSync(bin, ['mcp'], {
    cwd: repo,
    input: messages.map((m) => JSON.stringify(m)).join('\n') + '\n',
    encoding: 'utf8',
    env: { ...process.env, LC_ALL: 'C', NO_COLOR: '1' },
    maxBuffer: 64 << 20,
    timeout: 60_000,
  });
  const replies = (r.stdout ?? '').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  for (const id of [2, 3, 4]) {
    const reply = replies.find((m) => m.id === id);
    const what = `mcp tools/call #${id} structuredContent`;
    if (!reply?.result?.structuredContent) {
      fail(what, `no structuredContent; exit ${r.status}\n${r.stdout}\n${r.stderr}`);
      continue;
    }
    const doc = reply.result.structuredContent;
    if (check(doc, what)) ok(`${what} validates`);
    checkReferences(doc, what);
    documents.push([what, doc]);
  }
  // The same arguments on the command line print the same document (with full); without full,
  // the compact one: no line maps, each caller list's files the 20 the text names.
  const compactOf = (doc) => {
    const c = structuredClone(doc);
    c.compact = true;
    for (const spec of c.specs) {
      for (const anchor of spec.anchors) anchor.line_map = null;
      for (const list of spec.callers) {
        list.per_file_more = Math.max(0, list.per_file.length - 20);
        list.per_file = list.per_file.slice(0, 20);
      }
    }
    return c;
  };
  const same = [[2, '--target HEAD --max-lines 1500 --max-tokens 25000', false],
    [3, 'several specs --table --max-lines 1500 --max-tokens 25000', true],
    [4, '--max-lines 20 --max-tokens 25000', false]];
  for (const [id, cliWhat, compact] of same) {
    const mcpDoc = replies.find((m) => m.id === id)?.result?.structuredContent;
    const found = documents.find(([what]) => what === cliWhat)?.[1];
    if (!mcpDoc || !found) continue;
    const cliDoc = compact ? compactOf(found) : found;
    try {
      assert.deepStrictEqual(mcpDoc, cliDoc);
      ok(`mcp tools/call #${id} structuredContent equals the CLI's document (${cliWhat})`);
    } catch (e) {
      fail(`mcp tools/call #${id} structuredContent equals the CLI's document (${cliWhat})`, e.message.slice(0, 2000));
    }
  }
}

// ---- 4. coverage: the documents exercise the schema's branches -------------------------------
{
  const anchors = [];
  const windows = [];
  const callers = [];
  const specs = [];
  for (const [, doc] of documents) {
    for (const spec of doc.specs) {
      specs.push(spec);
      anchors.push(...spec.anchors);
      windows.push(...spec.windows);
      callers.push(...spec.callers);
    }
  }
  const seen = (what, pred, pool) => {
    if (!pool.some(pred)) fail(`coverage: some document has ${what}`);
  };
  for (const s of ['SAME', 'MOVED', 'TOUCHED', 'GONE', 'NEW', 'UNRESOLVED'])
    seen(`status ${s}`, (a) => a.status === s, anchors);
  seen('an edit anchor', (a) => a.kind === 'edit', anchors);
  seen('a read anchor', (a) => a.kind === 'read', anchors);
  seen('an ad hoc anchor', (a) => a.label.startsWith('--anchor['), anchors);
  seen('renamed true', (a) => a.renamed === true, anchors);
  seen('lines_deleted true', (a) => a.lines_deleted === true, anchors);
  seen('binary true', (a) => a.binary === true, anchors);
  for (const v of [true, false, null]) {
    seen(`symbol_found ${v}`, (a) => a.symbol_found === v, anchors);
    seen(`exists_at_target ${v}`, (a) => a.exists_at_target === v, anchors);
    seen(`edited_since ${v}`, (a) => a.edited_since === v, anchors);
  }
  seen('a history entry', (a) => a.history?.some((h) => h.commit !== 'worktree'), anchors);
  seen('a worktree history entry', (a) => a.history?.some((h) => h.commit === 'worktree'), anchors);
  seen('history null (no lines at the target)', (a) => a.history === null, anchors);
  seen('a symbol', (a) => typeof a.symbol === 'string', anchors);
  seen('no symbol', (a) => a.symbol === null, anchors);
  seen('to null', (a) => a.to === null, anchors);
  seen('a NEW anchor with a range and a window', (a) => a.status === 'NEW' && a.to !== null && a.window !== null, anchors);
  seen('reason set', (a) => typeof a.reason === 'string', anchors);
  seen('window null', (a) => a.window === null, anchors);
  seen('window > 0', (a) => a.window > 0, anchors);
  seen('base null (unresolved)', (s) => s.base === null, specs);
  seen('id null (ad hoc anchors)', (s) => s.id === null, specs);
  seen('a window cut by max_lines', (w) => w.cut?.by === 'max_lines' && w.lines.length === 0, windows);
  seen('a caller list cut by max_lines', (c) => c.cut?.by === 'max_lines' && c.hits.length === 0, callers);
  seen('omitted lines and their lift', (w) => w.omitted?.lift?.max_window_lines > 100, windows);
  seen('more callers and their lift', (c) => c.more?.lift?.max_callers === c.total, callers);
  seen('long lines and their lift', (s) => s.long_lines?.lift?.max_line_bytes > 300, specs);
  seen('target worktree', (s) => s.target === 'worktree', specs);
  seen('head set (a working-tree target)', (s) => typeof s.head === 'string', specs);
  seen('head null', (s) => s.head === null, specs);
  seen('base_blob set', (a) => typeof a.base_blob === 'string', anchors);
  seen('base_blob null', (a) => a.base_blob === null, anchors);
  seen('target_blob set', (a) => typeof a.target_blob === 'string', anchors);
  seen('target_blob null', (a) => a.target_blob === null, anchors);
  seen('target a commit', (s) => s.target !== 'worktree', specs);
  seen('target_rev null', (s) => s.target_rev === null, specs);
  seen('since set', (s) => typeof s.since === 'string', specs);
  seen('a spec with no windows', (s) => s.windows.length === 0, specs);
  seen('omitted lines', (w) => w.omitted !== null, windows);
  seen('an unavailable window', (w) => typeof w.unavailable === 'string', windows);
  seen('a window holding two anchors', (w) => w.rows.length > 1, windows);
  seen('a cut window line', (w) => w.lines.some((l) => l.cut_bytes > 0), windows);
  seen('a context line', (w) => w.lines.some((l) => !l.anchored), windows);
  seen('a caller hit', (c) => c.hits.length > 0, callers);
  seen('a cut caller hit', (c) => c.hits.some((h) => h.cut_bytes > 0), callers);
  seen('more callers than hits listed', (c) => c.total > c.hits.length, callers);
  seen('per-file counts', (c) => c.per_file.length > 0, callers);
  seen('exit_status 0', (d) => d.exit_status === 0, documents.map(([, d]) => d));
  seen('exit_status 1', (d) => d.exit_status === 1, documents.map(([, d]) => d));
  if (!failures) ok(`coverage: ${documents.length} documents, ${anchors.length} anchors, ${windows.length} windows, ${callers.length} caller lists exercise every branch`);
}

// ---- 5. negative checks: broken documents must fail -------------------------------------------
{
  const [baseWhat, original] = documents.find(([what]) => what === 'default (working tree)') ?? [];
  assert.ok(original, 'the default run produced no document to mutate');
  // Each mutation names where the schema must object: [instancePath suffix, keyword].
  const mutations = [
    ['a required key renamed (symbol_found -> symbolFound)', ['/anchors/0', 'required'], (d) => {
      const a = d.specs[0].anchors[0];
      a.symbolFound = a.symbol_found;
      delete a.symbol_found;
    }],
    ['a required key renamed at the top (specs -> spec)', ['', 'required'], (d) => { d.spec = d.specs; delete d.specs; }],
    ['a window line without cut_bytes', ['/lines/0', 'required'], (d) => { delete d.specs[0].windows[0].lines[0].cut_bytes; }],
    ['a wrong status string (MOVED+RENAMED)', ['/status', 'enum'], (d) => { d.specs[0].anchors.find((a) => a.renamed).status = 'MOVED+RENAMED'; }],
    ['a wrong status string (SYMBOL_MISSING)', ['/status', 'enum'], (d) => { d.specs[0].anchors[0].status = 'SYMBOL_MISSING'; }],
    ['a wrong status string (moved)', ['/status', 'enum'], (d) => { d.specs[0].anchors[0].status = 'moved'; }],
    ['a string where an integer belongs (line "7")', ['/anchors/0/line', 'type'], (d) => { d.specs[0].anchors[0].line = String(d.specs[0].anchors[0].line); }],
    ['a string where an integer belongs (window "0")', ['/window', 'type'], (d) => { d.specs[0].anchors.find((a) => a.window !== null).window = '0'; }],
    ['a string where an integer belongs (per_file count)', ['/count', 'type'], (d) => {
      const c = d.specs[0].callers.find((x) => x.per_file.length);
      c.per_file[0].count = String(c.per_file[0].count);
    }],
    ['a fraction where an integer belongs (caller total)', ['/total', 'type'], (d) => { d.specs[0].callers[0].total = 1.5; }],
    ['null where a boolean belongs (renamed)', ['/renamed', 'type'], (d) => { d.specs[0].anchors[0].renamed = null; }],
    ['an unknown kind', ['/kind', 'enum'], (d) => { d.specs[0].anchors[0].kind = 'write'; }],
    ['an edit anchor with why instead of change', ['/anchors/0', 'required'], (d) => {
      const a = d.specs[0].anchors[0];
      a.why = a.change;
      delete a.change;
    }],
    ['a read anchor without why', ['', 'required'], (d) => { delete d.specs[0].anchors.find((x) => x.kind === 'read').why; }],
    ['to without end_line', ['/to', 'required'], (d) => { delete d.specs[0].anchors.find((a) => a.to !== null).to.end_line; }],
    ['a GONE anchor with a range at the target', ['/to', 'type'], (d) => {
      d.specs[0].anchors.find((a) => a.status === 'GONE').to = { path: 'x.c', line: 1, end_line: 1 };
    }],
    ['a NEW anchor absent at the target with a range there', ['/to', 'type'], (d) => {
      d.specs[0].anchors.find((a) => a.exists_at_target === false).to = { path: 'x.c', line: 1, end_line: 1 };
    }],
    ['a short target blob id', ['/target_blob', 'pattern'], (d) => {
      const a = d.specs[0].anchors.find((x) => x.target_blob !== null);
      a.target_blob = a.target_blob.slice(0, 12);
    }],
    ['a negative window index', ['/window', 'minimum'], (d) => { d.specs[0].anchors.find((a) => a.window !== null).window = -1; }],
    ['a window cut by an unknown cap', ['/cut/by', 'const'], (d) => { d.specs[0].windows[0].cut = { by: 'lines', lift: { only: ['1'] } }; }],
    ['a lift of only as a number', ['/lift/only', 'type'], (d) => { d.specs[0].windows[0].cut = { by: 'max_lines', lift: { only: 1 } }; }],
    ['an id that is neither a string nor null', ['/id', 'type'], (d) => { d.specs[0].id = 7; }],
    ['format_version 2', ['/format_version', 'const'], (d) => { d.format_version = 2; }],
    ['exit_status 2', ['/exit_status', 'enum'], (d) => { d.exit_status = 2; }],
    ['a short base hash', ['/base', 'pattern'], (d) => { d.specs[0].base = d.specs[0].base.slice(0, 12); }],
    ['a target that is neither a hash nor worktree', ['/target', 'pattern'], (d) => { d.specs[0].target = 'HEAD'; }],
  ];
  if (!validate(original)) fail('negative checks: the unmutated document validates');
  for (const [what, [where, keyword], mutate] of mutations) {
    const doc = structuredClone(original);
    mutate(doc);
    if (validate(doc)) {
      fail(`mutated (${what}) is rejected`, `the schema accepted it (mutation of ${baseWhat})`);
      continue;
    }
    const hit = validate.errors.find((e) => e.keyword === keyword && e.instancePath.endsWith(where));
    if (hit) ok(`mutated (${what}) is rejected: ${hit.instancePath || '/'} ${hit.message}`);
    else fail(`mutated (${what}) is rejected by '${keyword}' at ...${where}`,
      ajv.errorsText(validate.errors, { separator: '\n' }));
  }
}

if (failures) {
  console.log(`${failures} failure(s); the fixture and outputs are kept in ${dir}`);
  process.exit(1);
}
fs.rmSync(dir, { recursive: true, force: true });
console.log('all JSON documents match docs/context-pack.schema.json');
