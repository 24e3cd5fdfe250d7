// ctest's spec_schema: checks docs/spec.schema.json (the input's contract: one spec) with Ajv.
//  1. the schema is valid JSON Schema draft 2020-12 and compiles in strict mode; file_changes[]
//     and reads[] entries describe location, was and repin alike;
//  2. the README's spec examples (every ```json block holding file_changes or reads; a block
//     that is one entry, against file_changes[] entries) and the man page's (SPEC FORMAT)
//     validate, so the check follows their edits;
//  3. the fixture specs validate: the plans fixtures/demo.sh and tests/fixtures/edges.sh write
//     (the golden tests' inputs), the revised plans --repin writes in tests/golden, and
//     fuzz_spec's corpus, line by line for its .jsonl inputs;
//  4. specs the parser refuses fail the schema and specs it accepts pass, in file_changes[] and
//     in reads[], each checked against the real binary too (`--at-base --base HEAD CASE
//     good.json`: exit 2 exactly when the case is refused), .jsonl files included; the two
//     differences the schema's descriptions name (a 1.0 line, a symbol over 128 bytes but not
//     128 characters, was and repin of another shape than --repin writes) are pinned both ways;
//  5. every key the schema describes is one the parser reads (no warning for it); a key it
//     does not describe draws a warning;
//  6. `context-pack mcp` serves the schema (less $schema and $id) as the spec argument's
//     object form, and that form alone gives the same verdicts.
// Usage: node spec.mjs PATH/TO/context-pack
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import Ajv2020 from 'ajv/dist/2020.js';

if (process.argv.length !== 3) {
  console.error('usage: node spec.mjs PATH/TO/context-pack');
  process.exit(2);
}
const bin = path.resolve(process.argv[2]);
const here = path.dirname(fileURLToPath(import.meta.url));
const source = path.resolve(here, '..', '..');
const schemaPath = path.join(source, 'docs', 'spec.schema.json');

let failures = 0;
function ok(what) {
  console.log(`ok - ${what}`);
}
function fail(what, detail) {
  failures += 1;
  console.log(`FAIL - ${what}`);
  if (detail) console.log(String(detail).replace(/^/gm, '    '));
}
function attempt(what, f) {
  try {
    f();
    ok(what);
  } catch (e) {
    fail(what, e.message.slice(0, 2000));
  }
}

// ---- 1. the schema itself ---------------------------------------------------------------------
const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'));
// Strict mode on top of the meta-schema: unknown keywords and `required` names missing from
// `properties` are errors; ["string", "null"] types are what the parser takes, so unions are on.
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema',
  'the schema must declare draft 2020-12');
if (!ajv.validateSchema(schema)) {
  fail('schema is valid draft 2020-12', ajv.errorsText(ajv.errors, { separator: '\n' }));
  process.exit(1);
}
const validate = ajv.compile(schema);
ok('schema is valid JSON Schema draft 2020-12 and compiles in strict mode');

const edit = schema.properties.file_changes.items;
const read = schema.properties.reads.items;
for (const key of ['location', 'was', 'repin'])
  attempt(`file_changes[] and reads[] describe ${key} alike`, () => {
    assert.ok(edit.properties[key], `file_changes[] has no ${key}`);
    assert.deepStrictEqual(read.properties[key], edit.properties[key]);
  });

const errorsOf = (v) => ajv.errorsText(v.errors, { separator: '\n' });

// A .jsonl text as the schema's description says a validator takes it: split at newlines, skip
// the lines of spaces, tabs and carriage returns, validate each other line. [] when all pass,
// else the problems, each naming its line from 1.
function jsonlProblems(text) {
  const problems = [];
  text.split('\n').forEach((line, i) => {
    if (/^[ \t\r]*$/.test(line)) return;
    let value;
    try {
      value = JSON.parse(line);
    } catch (e) {
      problems.push(`line ${i + 1}: not JSON: ${e.message}`);
      return;
    }
    if (!validate(value)) problems.push(`line ${i + 1}: ${errorsOf(validate)}`);
  });
  return problems;
}
// The schema's verdict on a spec input's text: null when valid, else why not.
function verdict(text, jsonl) {
  if (jsonl) {
    const problems = jsonlProblems(text);
    return problems.length ? problems.join('\n') : null;
  }
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return `not JSON: ${e.message}`;
  }
  return validate(value) ? null : errorsOf(validate);
}
function mustValidate(text, jsonl, what) {
  const why = verdict(text, jsonl);
  if (why === null) ok(`${what} validates`);
  else fail(`${what} validates`, why);
}

// ---- 2. the README's and the man page's examples ----------------------------------------------
{
  const readme = fs.readFileSync(path.join(source, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  const specs = blocks.filter((b) => /"(file_changes|reads)"/.test(b));
  if (specs.length === 0) fail('README.md has a ```json spec example (with file_changes or reads)');
  specs.forEach((b, i) => mustValidate(b, false, `README.md's spec example ${i + 1} of ${specs.length}`));
  // An entry shown alone (the re-pinned anchor): a file_changes[] entry of the schema.
  const validateEntry = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }).compile(edit);
  for (const b of blocks.filter((x) => /^\{"location"/.test(x))) {
    if (validateEntry(JSON.parse(b))) ok(`README.md's entry example (${b.slice(0, 40)}...) is a file_changes[] entry`);
    else fail("README.md's entry example is a file_changes[] entry", errorsOf(validateEntry));
  }

  const man = fs.readFileSync(path.join(source, 'docs', 'context-pack.1.in'), 'utf8');
  const section = man.split(/^\.SH /m).find((s) => s.startsWith('SPEC FORMAT'));
  const example = section?.match(/^\.nf\n([\s\S]*?)^\.fi$/m)?.[1];
  if (!example) fail('the man page has a spec example under SPEC FORMAT');
  else mustValidate(example.replace(/\\-/g, '-').replace(/\\\(aq/g, "'"), false, "the man page's spec example");
}

// ---- 3. the fixture specs ---------------------------------------------------------------------
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-spec-schema-'));
for (const script of ['fixtures/demo.sh', 'tests/fixtures/edges.sh']) {
  const out = path.join(dir, script.replace(/\W/g, '_'));
  fs.mkdirSync(out);
  execFileSync('bash', [path.join(source, script), out], { stdio: ['ignore', 'ignore', 'inherit'] });
  mustValidate(fs.readFileSync(path.join(out, 'plan.json'), 'utf8'), false, `the plan ${script} writes`);
}
// The plans --repin writes (golden files of the revised demo plan, kept true by test_golden):
// was and repin as the tool writes them.
const goldenDir = path.join(source, 'tests', 'golden');
const revised = fs.readdirSync(goldenDir).filter((f) => /repin.*\.out$/.test(f)).sort();
if (revised.length === 0) fail('tests/golden has a revised plan (*repin*.out)');
for (const f of revised) {
  const text = fs.readFileSync(path.join(goldenDir, f), 'utf8');
  const jsonl = !text.startsWith('{\n');  // one indented document, or a spec a line
  mustValidate(text, jsonl, `the revised plan tests/golden/${f}`);
  attempt(`tests/golden/${f} has was and repin to check`, () => {
    assert.match(text, /"was"/);
    assert.match(text, /"repin"/);
  });
}
// The spec fuzzer's seeds: a first byte of '1' makes the rest a .jsonl text (tests/fuzz/fuzz_spec.cpp).
// Some are specs the parser refuses; the schema must agree with the binary on each (part 4).
const corpusDir = path.join(source, 'tests', 'fuzz', 'corpus', 'fuzz_spec');
const corpus = fs.readdirSync(corpusDir).sort().map((f) => {
  const bytes = fs.readFileSync(path.join(corpusDir, f), 'utf8');
  return { what: `fuzz_spec corpus ${f}`, text: bytes.slice(1), jsonl: bytes[0] === '1' };
});

// ---- 4. the parser and the schema agree -------------------------------------------------------
// A scratch repository with one commit: --base HEAD stands in for every spec's base, and
// good.json gives the run the anchor it needs, so the binary exits 2 only for a refused case.
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
git('init', '-q');
fs.writeFileSync(path.join(repo, 'a.c'), 'int a(void) {\n    return 1;\n}\n');
git('add', '-A');
git('commit', '-q', '-m', 'base');
const head = git('rev-parse', 'HEAD');
const good = path.join(dir, 'good.json');
fs.writeFileSync(good, JSON.stringify({ base: 'HEAD', reads: [{ location: { path: 'a.c', line: 1 }, why: 'a run needs an anchor' }] }));

// The binary's verdict: null when it reads the case, else its stderr.
let caseNo = 0;
function refusal(text, jsonl, extra = []) {
  const file = path.join(dir, `case-${++caseNo}.${jsonl ? 'jsonl' : 'json'}`);
  fs.writeFileSync(file, text);
  const r = spawnSync(bin, ['--at-base', '--base', 'HEAD', '--table', ...extra, file, good], {
    cwd: repo, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C', NO_COLOR: '1' },
  });
  if (r.status === 2) {
    assert.ok(r.stderr.includes(path.basename(file)), `exit 2 not about the case: ${r.stderr}`);
    return r.stderr.trim();
  }
  assert.ok(r.status === 0 || r.status === 1, `exit ${r.status}: ${r.error ?? r.stderr}`);
  return null;
}
// Both must accept (`accepted`) or both refuse the case.
function agree(what, text, jsonl, accepted) {
  const schemaWhy = verdict(text, jsonl);
  let parserWhy;
  try {
    parserWhy = refusal(text, jsonl);
  } catch (e) {
    fail(`${what}: the binary reads or refuses it`, e.message);
    return;
  }
  const [schemaSays, parserSays] = [schemaWhy === null, parserWhy === null];
  if (accepted !== undefined && parserSays !== accepted) {
    fail(`${what}: the parser ${accepted ? 'accepts' : 'refuses'} it`, parserWhy ?? 'it accepted it');
  } else if (schemaSays !== parserSays) {
    fail(`${what}: the schema ${parserSays ? 'accepts' : 'refuses'} it as the parser does`,
      parserSays ? `the schema refused it:\n${schemaWhy}` : `the schema accepted it; the parser said: ${parserWhy}`);
  } else {
    ok(`${what}: ${parserSays ? 'accepted' : 'refused'} by both${parserSays ? '' : ` (${schemaWhy.split('\n')[0]})`}`);
  }
}

const spec = (location, extra = {}) => JSON.stringify({ base: 'HEAD', reads: [{ location, why: 'x', ...extra }] });
const edits = (entry) => JSON.stringify({ base: 'HEAD', file_changes: [entry] });
const at = (fields) => spec({ path: 'a.c', line: 1, ...fields });
const refused = [
  ['a repin marker that is an object', spec({ path: 'a.c', line: 1 }, { repin: {} })],
  ['a line past 64 bits written 1e23', '{"base":"HEAD","reads":[{"location":{"path":"a.c","line":1e23}}]}'],
  ['a string line', at({ line: '1' })],
  ['a fractional line', at({ line: 1.5 })],
  ['a null line', at({ line: null })],
  ['a boolean line', at({ line: true })],
  ['no line', spec({ path: 'a.c' })],
  ['no location', JSON.stringify({ base: 'HEAD', reads: [{ why: 'x' }] })],
  ['a null location', JSON.stringify({ base: 'HEAD', reads: [{ location: null }] })],
  ['a location that is a string', JSON.stringify({ base: 'HEAD', reads: [{ location: 'a.c:1' }] })],
  ['an empty path', at({ path: '' })],
  ['a null path', at({ path: null })],
  ['no path', spec({ line: 1 })],
  ['a path that is a number', at({ path: 7 })],
  ['a string end_line', at({ end_line: '2' })],
  ['a fractional end_line', at({ end_line: 2.5 })],
  ['an end_line past 2^63 - 1', '{"base":"HEAD","reads":[{"location":{"path":"a.c","line":1,"end_line":18446744073709551615}}]}'],
  ['a line below -2^63', '{"base":"HEAD","reads":[{"location":{"path":"a.c","line":-9223372036854779999}}]}'],
  ['a symbol with a space', at({ symbol: 'parse args' })],
  ['a symbol with a tab', at({ symbol: 'parse\targs' })],
  ['a symbol with a newline', at({ symbol: 'parse\n' })],
  ['a symbol with a NUL', at({ symbol: 'a\u0000b' })],
  ['a symbol with DEL', at({ symbol: 'a\u007fb' })],
  ['an empty symbol', at({ symbol: '' })],
  ['a symbol of 129 bytes', at({ symbol: 'x'.repeat(129) })],
  ['a symbol that is a number', at({ symbol: 7 })],
  ['an id that is a number', JSON.stringify({ id: 7, base: 'HEAD' })],
  ['a base that is an object', JSON.stringify({ base: { rev: 'HEAD' } })],
  ['a target that is an array', JSON.stringify({ base: 'HEAD', target: ['HEAD'] })],
  ['file_changes that is an object', JSON.stringify({ base: 'HEAD', file_changes: {} })],
  ['reads that is a string', JSON.stringify({ base: 'HEAD', reads: 'a.c:1' })],
  ['an entry that is a string', JSON.stringify({ base: 'HEAD', reads: ['a.c:1'] })],
  ['an entry that is null', JSON.stringify({ base: 'HEAD', file_changes: [null] })],
  ['a change that is a number', edits({ location: { path: 'a.c', line: 1 }, change: 3 })],
  ['a why that is a boolean', spec({ path: 'a.c', line: 1 }, { why: true })],
  ['a spec that is an array', JSON.stringify([{ base: 'HEAD' }])],
  ['a spec that is a string', JSON.stringify('plan.json')],
  ['a spec that is null', 'null'],
];
const accepted = [
  ['the companion spec', fs.readFileSync(good, 'utf8')],
  ['an empty object', '{}'],
  ['a base alone', JSON.stringify({ base: 'HEAD' })],
  ['every optional key null', JSON.stringify({
    id: null, base: null, target: null, file_changes: null,
    reads: [{ location: { path: 'a.c', line: 1, end_line: null, symbol: null }, why: null }],
  })],
  ['a null change', edits({ location: { path: 'a.c', line: 1 }, change: null })],
  ['empty lists', JSON.stringify({ base: 'HEAD', file_changes: [], reads: [] })],
  ['unknown keys at every level', JSON.stringify({
    bse: 'HEAD', base: 'HEAD', plan: { nested: [1, { deep: true }] },
    file_changes: [{ location: { path: 'a.c', line: 1, endline: 2, zz: null }, change: 'x', why: 'y', end_line: 3 }],
    reads: [{ location: { path: 'a.c', line: 1 }, wy: 'z', change: 'w' }],
  })],
  ['a line 0 and a negative end_line (UNRESOLVED, not refused)', at({ line: 0, end_line: -4 })],
  ['an end_line before line', at({ line: 3, end_line: 1 })],
  ['line 2^63 - 1', '{"base":"HEAD","reads":[{"location":{"path":"a.c","line":9223372036854775807}}]}'],
  ['a line written 1.0 (the integer 1 to both)', '{"base":"HEAD","reads":[{"location":{"path":"a.c","line":1.0}}]}'],
  ['line -2^63', '{"base":"HEAD","reads":[{"location":{"path":"a.c","line":-9223372036854775808}}]}'],
  ['a path outside the repository', at({ path: '../outside.c' })],
  ['a path absent at base (an edit: NEW)', edits({ location: { path: 'new/file.c', line: 1 }, change: 'create it' })],
  ['a symbol with punctuation', at({ symbol: 'ns::operator<<' })],
  ['a symbol with non-ASCII letters', at({ symbol: 'café' })],
  ['a symbol with a no-break space (only ASCII spaces are refused)', at({ symbol: 'a\u00a0b' })],
  ['a symbol of 128 bytes', at({ symbol: 'x'.repeat(128) })],
  ['was and repin as --repin writes them', spec({ path: 'a.c', line: 1 }, {
    was: { base: head, path: 'old/a.c', line: 10, end_line: 12 }, repin: 'its lines were edited between the bases',
  })],
  ['a spec with a target', JSON.stringify({ base: 'HEAD', target: 'HEAD', file_changes: [{ location: { path: 'a.c', line: 1, end_line: 3, symbol: 'a' }, change: 'x' }] })],
];
// file_changes[] and reads[] each have their own copy of location: a case written in reads[]
// is checked in file_changes[] too.
const asEdit = (text) => text.replace('"reads":[', '"file_changes":[').replace(/"why":/g, '"change":');
const inBoth = (cases) => cases.flatMap(([what, text]) =>
  text.includes('"reads":[') && !text.includes('"file_changes"')
    ? [[`${what} (reads)`, text], [`${what} (file_changes)`, asEdit(text)]] : [[what, text]]);
for (const [what, text] of inBoth(refused)) agree(`refused: ${what}`, text, false, false);
for (const [what, text] of inBoth(accepted)) agree(`accepted: ${what}`, text, false, true);
// What the descriptions say differs: both ways, so a change to either shows. `schemaAccepts`:
// the schema accepts it and the parser refuses it, else the other way round.
function differs(what, text, schemaAccepts = true) {
  const schemaWhy = verdict(text, false);
  const parserWhy = refusal(text, false);
  if ((schemaWhy === null) === schemaAccepts && (parserWhy === null) === !schemaAccepts)
    ok(`a named difference: ${what}: the ${schemaAccepts ? 'schema' : 'parser'} accepts it, the ${schemaAccepts ? 'parser' : 'schema'} refuses it`);
  else fail(`a named difference: ${what}`, `schema: ${schemaWhy ?? 'valid'}; parser: ${parserWhy ?? 'accepted'}`);
}
differs('a symbol of 128 characters but 256 bytes', at({ symbol: 'é'.repeat(128) }));
// was is the shape --repin writes; the parser does not read it.
differs('a was that is a number', spec({ path: 'a.c', line: 1 }, { was: 5 }), false);

// .jsonl: the schema applies to each non-blank line.
const line = (o) => JSON.stringify(o);
const a = { id: 'a', base: 'HEAD', reads: [{ location: { path: 'a.c', line: 1 }, why: 'x' }] };
agree('accepted: a .jsonl of two specs with blank lines between (spaces, a tab, CRLF)',
  `${line(a)}\r\n\n   \n\t\n${line({ ...a, id: 'b' })}\n`, true, true);
agree('accepted: a .jsonl whose one line has no anchor', `${line({ base: 'HEAD' })}\n${line(a)}\n`, true, true);
agree('refused: a .jsonl whose second spec has a string line',
  `${line(a)}\n${line({ base: 'HEAD', reads: [{ location: { path: 'a.c', line: '1' } }] })}\n`, true, false);
agree('refused: a .jsonl whose line is an array', `${line(a)}\n${line([a])}\n`, true, false);
for (const c of corpus) agree(c.what, c.text, c.jsonl);

// ---- 5. the known keys ------------------------------------------------------------------------
// A spec holding every key the schema describes, at each place: the parser must read them all.
{
  const location = { path: 'a.c', line: 1, end_line: 2, symbol: 'a' };
  const extra = { was: { base: head, path: 'a.c', line: 1, end_line: 2 }, repin: 'not moved' };
  const full = {
    id: 'keys', base: 'HEAD', target: 'HEAD',
    file_changes: [{ location: { ...location }, change: 'x', ...extra }],
    reads: [{ location: { ...location }, why: 'y', ...extra }],
  };
  const places = [
    ['the top level', schema, full],
    ['a file_changes entry', edit, full.file_changes[0]],
    ['a reads entry', read, full.reads[0]],
    ['a location', edit.properties.location, location],
    ['was', edit.properties.was, extra.was],
  ];
  attempt('the sample spec uses every key the schema describes', () => {
    for (const [where, s, sample] of places)
      assert.deepStrictEqual(Object.keys(sample).sort(), Object.keys(s.properties).sort(), where);
  });
  mustValidate(JSON.stringify(full), false, 'the sample spec');
  const file = path.join(dir, 'keys.json');
  const run = (o) => {
    fs.writeFileSync(file, JSON.stringify(o));
    const r = spawnSync(bin, ['--base', 'HEAD', '--target', 'HEAD', '--format', 'json', file], { cwd: repo, encoding: 'utf8' });
    assert.ok(r.status === 0 || r.status === 1, `exit ${r.status}: ${r.stderr}`);
    return JSON.parse(r.stdout).specs[0].warnings;
  };
  attempt('the parser reads every key the schema describes', () => {
    assert.deepStrictEqual(run(full), []);
  });
  attempt('a key the schema does not describe draws a warning at each place', () => {
    const odd = structuredClone(full);
    odd.zz = 1;
    odd.file_changes[0].zz = 1;
    odd.reads[0].zz = 1;
    odd.reads[0].location.zz = 1;
    const warned = run(odd).filter((w) => w.includes("unknown key 'zz'"));
    assert.deepStrictEqual(warned.map((w) => w.replace(/:? ?unknown key 'zz'.*/, '')).sort(),
      ['', 'file_changes[0]', 'reads[0]', 'reads[0].location']);
  });
}

// ---- 6. the MCP tool's spec argument ----------------------------------------------------------
{
  const messages = [
    { jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'spec-schema-test', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ];
  const r = spawnSync(bin, ['mcp'], {
    cwd: repo, input: messages.map((m) => JSON.stringify(m)).join('\n') + '\n', encoding: 'utf8', timeout: 60_000,
  });
  attempt('context-pack mcp serves docs/spec.schema.json as the spec argument (less $schema, $id, titles and descriptions)', () => {
    const replies = r.stdout.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
    const forms = replies.find((m) => m.id === 2).result.tools[0].inputSchema.properties.spec.anyOf;
    const { $schema, $id, ...whole } = schema;
    // Titles and descriptions validate nothing; property names are kept whatever they are.
    const strip = (node, named = false) => {
      if (Array.isArray(node)) return node.map((item) => strip(item));
      if (node === null || typeof node !== 'object') return node;
      return Object.fromEntries(Object.entries(node)
        .filter(([key]) => named || (key !== 'title' && key !== 'description'))
        .map(([key, value]) => [key, strip(value, !named && key === 'properties')]));
    };
    assert.deepStrictEqual(forms[0], strip(whole));
    assert.deepStrictEqual(forms[1], { type: 'string', description: 'a path of a spec file, or a JSON text of one' });
    // The served form stands alone: the same verdicts without $schema.
    const served = new Ajv2020({ strict: true, allowUnionTypes: true }).compile(forms[0]);
    for (const [what, text] of [...refused, ...accepted])
      assert.equal(served(JSON.parse(text)), validate(JSON.parse(text)), what);
  });
}

if (failures) {
  console.log(`${failures} failure(s); the fixtures and cases are kept in ${dir}`);
  process.exit(1);
}
fs.rmSync(dir, { recursive: true, force: true });
console.log('every spec checked agrees with docs/spec.schema.json');
