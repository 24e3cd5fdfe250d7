// End-to-end: the official MCP TypeScript SDK's Client spawns `context-pack mcp` over stdio,
// declaring roots, lists its tool, calls it on a fixture repository built here with git,
// checks the text and structuredContent (which the SDK also validates against the tool's
// outputSchema), checks that bad calls and paths outside the roots are isError results after
// which the server still answers, that changed roots are asked for again, that the caps cut
// structuredContent as the text and the pointers name the tool's arguments, ad hoc anchors
// and a null id, progress notifications and a ping answered while a slow call runs (ordering,
// not timing: the ping is sent once the call's first progress is in), a cancelled call that
// never answers, and closes; then a client without roots, whose calls read only inside the
// server's directory, and one that starts the server from / with roots.
// Usage: node client.mjs PATH/TO/context-pack
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

if (process.argv.length !== 3) {
  console.error('usage: node client.mjs PATH/TO/context-pack');
  process.exit(2);
}
const bin = path.resolve(process.argv[2]);
const watchdog = setTimeout(() => {
  console.error('FAIL: the MCP session took over 120 s');
  process.exit(1);
}, 120_000);
watchdog.unref();

function step(what) {
  console.log(`ok - ${what}`);
}

// ---- the fixture: a.c moved down one line in the working tree, b.c deleted ------------------
// The folder's name needs escapes in a file:// URI (a space, a '%'), as the SDK's roots send it.
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cp mcp %-')));
const repo = path.join(dir, 'repo');
const notRepo = path.join(dir, 'not-a-repo');
fs.mkdirSync(repo);
fs.mkdirSync(notRepo);
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
const numbered = (n) => Array.from({ length: n }, (_, i) => `L${i + 1}\n`).join('');

git('init', '-q');
fs.writeFileSync(path.join(repo, 'a.c'), numbered(20));
fs.writeFileSync(path.join(repo, 'b.c'), 'int b;\n');
git('add', '-A');
git('commit', '-q', '-m', 'base');
const base = git('rev-parse', 'HEAD');
fs.writeFileSync(path.join(repo, 'a.c'), '// new\n' + numbered(20));
fs.rmSync(path.join(repo, 'b.c'));

const spec = {
  id: 'plan',
  base,
  file_changes: [{ location: { path: 'a.c', line: 3, end_line: 4, symbol: 'L3' }, change: 'edit it' }],
  reads: [{ location: { path: 'b.c', line: 1 }, why: 'deleted since' }],
};
const specFile = path.join(dir, 'plan.json');
fs.writeFileSync(specFile, JSON.stringify(spec));

// A slow call, made slow by its size, not by time: 3000 specs over a history of 40 commits,
// each spec at one of them, resolved one after another.
const hist = path.join(dir, 'hist');
fs.mkdirSync(hist);
const histGit = (...args) => execFileSync('git', args, { cwd: hist, env: gitEnv, encoding: 'utf8' }).trim();
histGit('init', '-q');
const histBases = [];
for (let i = 0; i < 40; i += 1) {
  fs.writeFileSync(path.join(hist, 'a.c'), numbered(40 + i));
  fs.writeFileSync(path.join(hist, `c${i % 7}.c`), numbered(i + 3));
  histGit('add', '-A');
  histGit('commit', '-q', '-m', `c${i}`);
  histBases.push(histGit('rev-parse', 'HEAD'));
}
const slowFile = path.join(dir, 'slow.jsonl');
fs.writeFileSync(slowFile, Array.from({ length: 3000 }, (_, i) => JSON.stringify({
  id: `s${i}`,
  base: histBases[i % histBases.length],
  reads: [{ location: { path: 'a.c', line: 1 + (i % 30), symbol: 'L1' } }, { location: { path: 'c1.c', line: 1 } }],
})).join('\n') + '\n');
const slow = { spec: slowFile, repo: hist };

// ---- the session: a client whose root is the fixture's folder -------------------------------
const transport = new StdioClientTransport({ command: bin, args: ['mcp'], cwd: repo, stderr: 'pipe' });
let serverStderr = '';
transport.stderr.on('data', (chunk) => { serverStderr += chunk; });
const client = new Client({ name: 'context-pack-e2e', version: '1.0.0' },
  { capabilities: { roots: { listChanged: true } } });
let roots = [{ uri: pathToFileURL(dir).href, name: 'fixture' }];
let rootsAsked = 0;
client.setRequestHandler(ListRootsRequestSchema, async () => {
  rootsAsked += 1;
  return { roots };
});
const transportErrors = [];
client.onerror = (e) => transportErrors.push(e);

try {
  await client.connect(transport);
  const child = transport._process; // private, but the only way to see the exit status
  // Every line the server writes, and every message the client sends, as they go.
  let rawOut = '';
  child.stdout.on('data', (chunk) => { rawOut += chunk; });
  const sent = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent.push(message);
    return send(message, options);
  };
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  const info = client.getServerVersion();
  assert.equal(info.name, 'context-pack');
  assert.match(info.version, /^\d+\.\d+\.\d+/);
  assert.ok(client.getServerCapabilities().tools, 'the server declares tools');
  assert.match(client.getInstructions() ?? '', /context_pack/);
  assert.ok(roots[0].uri.includes('cp%20mcp%20%25-'), roots[0].uri);
  step(`initialize: ${info.name} ${info.version}`);

  const { tools } = await client.listTools();
  assert.equal(tools.length, 1);
  const tool = tools[0];
  assert.equal(tool.name, 'context_pack');
  assert.deepEqual(Object.keys(tool.inputSchema.properties).sort(), [
    'anchor', 'at_base', 'base', 'callers_in', 'context', 'full', 'history', 'max_callers',
    'max_file_mib', 'max_line_bytes', 'max_lines', 'max_tokens', 'max_window_lines', 'only', 'prose', 'repin',
    'repo', 'since',
    'spec', 'table_only', 'target',
  ]);
  assert.equal(tool.inputSchema.required, undefined, 'spec, or anchor with base');
  assert.ok(tool.outputSchema, 'the tool declares an outputSchema');
  step('tools/list: context_pack with its input and output schemas');

  // A spec object; repo defaults to the server's directory. callTool validates
  // structuredContent against the outputSchema and throws if it does not match.
  const orient = await client.callTool({ name: 'context_pack', arguments: { spec } });
  assert.ok(!orient.isError, `unexpected isError: ${JSON.stringify(orient.content)}`);
  assert.equal(orient.content.length, 1);
  assert.equal(orient.content[0].type, 'text');
  const text = orient.content[0].text;
  assert.ok(text.startsWith('plan (spec): base '), text);
  assert.match(text, /a\.c:3-4\s+MOVED\s+a\.c:4-5/);
  assert.match(text, /b\.c:1\s+GONE/);
  assert.match(text, /^> 4 \| L3$/m, 'the window shows the anchored lines where they are now');
  assert.ok(!text.includes('\x1b['), 'no colour in the text');
  const doc = orient.structuredContent;
  assert.equal(doc.exit_status, 1, 'a GONE anchor: exit status 1, and still no tool error');
  assert.equal(doc.specs[0].base, base);
  assert.deepEqual(doc.specs[0].anchors.map((a) => a.status), ['MOVED', 'GONE']);
  assert.deepEqual(doc.specs[0].anchors[0].to, { path: 'a.c', line: 4, end_line: 5 });
  step('tools/call with a spec object: MOVED and GONE, text and structured content');

  // history: each anchor's commits since base; none moved a.c's lines, b.c has none left.
  const history = await client.callTool({ name: 'context_pack', arguments: { spec, history: true } });
  assert.ok(!history.isError, `unexpected isError: ${JSON.stringify(history.content)}`);
  assert.deepEqual(history.structuredContent.specs[0].anchors.map((a) => a.history), [[], null]);
  assert.match(history.content[0].text, /history: no commit since base changed these lines/);
  step('tools/call with history: the history in the text and the structured content');

  // A spec file: the text is exactly what the command line prints.
  const fromFile = await client.callTool({ name: 'context_pack', arguments: { spec: specFile, repo } });
  assert.ok(!fromFile.isError);
  const cli = spawnSync(bin, [specFile, '--color', 'never'], { cwd: repo, encoding: 'utf8' });
  assert.equal(cli.status, 1, cli.stderr);
  assert.equal(fromFile.content[0].text, cli.stdout);
  step('tools/call with a spec file: the same text as `context-pack plan.json`');

  const table = await client.callTool({
    name: 'context_pack',
    arguments: { spec: specFile, repo, table_only: true, only: ['1'] },
  });
  assert.ok(!table.isError);
  assert.equal(table.structuredContent.exit_status, 0);
  assert.equal(table.structuredContent.specs[0].anchors.length, 1);
  assert.ok(!/\| L3$/m.test(table.content[0].text), 'table_only: no code');
  step('tools/call with table_only and only');

  // callers_in: the caller search restricted, untracked files in it searched too.
  fs.mkdirSync(path.join(repo, 'docs'));
  fs.writeFileSync(path.join(repo, 'use.c'), 'int x = L3;\n');
  fs.writeFileSync(path.join(repo, 'docs', 'n.md'), 'See L3.\n');
  const within = async (callersIn) => {
    const r = await client.callTool({ name: 'context_pack', arguments: { spec, callers_in: callersIn } });
    assert.ok(!r.isError, JSON.stringify(r.content));
    return r.structuredContent.specs[0].callers[0].hits.map((h) => `${h.group} ${h.path}`);
  };
  assert.deepEqual(await within(['.']), ['language use.c', 'docs docs/n.md']);
  assert.deepEqual(await within(['docs/']), ['docs docs/n.md']);
  fs.rmSync(path.join(repo, 'docs'), { recursive: true });
  fs.rmSync(path.join(repo, 'use.c'));
  step('tools/call with callers_in: untracked files searched, hits grouped, the search narrowed');

  // Bad input: tool results with isError and one line of text, never a dead server.
  const bad = [
    [{ spec: { ...spec, file_changes: [{ location: { path: 'a.c', line: 'three' } }] } },
      /spec: file_changes\[0\]\.location\.line must be an integer/],
    [{ spec: path.join(dir, 'missing.json') }, /cannot read spec file/],
    [{ spec, repo: notRepo }, /not a git repository/],
    [{ spec, target: 'no-such-rev' }, /target no-such-rev not in this repository/],
    [{ spec, tabel_only: true }, /unknown argument 'tabel_only'/],
    [{ spec, callers_in: [':!docs'] }, /^callers_in ':!docs': pathspec magic/],
    [{ spec, callers_in: 'docs' }, /^callers_in must be an array of strings, not a string/],
    [{ spec: '/etc/passwd' }, /^spec \/etc\/passwd is outside the client's roots \(/],
    [{ spec: `${repo}/../../x.json` }, /resolves to .*, outside the client's roots/],
    [{ spec, repo: os.tmpdir() }, /^repo .* is outside the client's roots \(.*cp mcp %-/],
  ];
  for (const [args, message] of bad) {
    const r = await client.callTool({ name: 'context_pack', arguments: args });
    assert.equal(r.isError, true, JSON.stringify(args));
    assert.equal(r.content.length, 1);
    assert.match(r.content[0].text, message);
    assert.ok(!r.content[0].text.includes('\n'), 'one line');
    assert.equal(r.structuredContent, undefined);
  }
  step(`bad input: ${bad.length} isError results`);

  await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), (e) => e.code === -32602);
  step('an unknown tool is a JSON-RPC error (-32602)');

  await client.ping();
  const again = await client.callTool({ name: 'context_pack', arguments: { spec, table_only: true } });
  assert.ok(!again.isError);
  assert.equal(again.structuredContent.specs[0].anchors[0].status, 'MOVED');
  step('the server still answers after the errors');

  // Every combination of the arguments that change a result's shape, after listTools(): the
  // SDK validates each result's structuredContent against the declared outputSchema, and
  // callTool throws on one that does not match (a re-pin's once lacked caps and cut).
  const shapes = [{ table_only: true }, { repin: true, target: 'HEAD' }, { at_base: true },
    { history: true }, { prose: true }, { only: ['1'] }, { max_lines: 5 }];
  let valid = 0, refused = 0;
  for (let mask = 0; mask < (1 << shapes.length); ++mask) {
    const args = { spec };
    shapes.forEach((s, i) => { if (mask & (1 << i)) Object.assign(args, s); });
    const r = await client.callTool({ name: 'context_pack', arguments: args });
    if (r.isError) {
      ++refused;
      assert.equal(r.structuredContent, undefined, JSON.stringify(args));
      continue;
    }
    assert.ok(r.structuredContent, JSON.stringify(args));
    ++valid;
  }
  assert.ok(valid >= 32, `${valid} valid results`);
  step(`${valid + refused} argument combinations: ${valid} results valid against the output schema, ${refused} refused`);

  // The roots shrink to the repository: the server asks again, and the spec file beside the
  // repository is outside them now; grown back, it is read again.
  assert.equal(rootsAsked, 1);
  roots = [{ uri: pathToFileURL(repo).href }];
  await client.sendRootsListChanged();
  const narrowed = await client.callTool({ name: 'context_pack', arguments: { spec: specFile, repo } });
  assert.equal(narrowed.isError, true);
  assert.match(narrowed.content[0].text, /^spec .*plan\.json is outside the client's roots \(.*\/repo\)/);
  assert.equal(rootsAsked, 2);
  roots = [{ uri: pathToFileURL(dir).href }];
  await client.sendRootsListChanged();
  const grown = await client.callTool({ name: 'context_pack', arguments: { spec: specFile, repo } });
  assert.ok(!grown.isError, JSON.stringify(grown.content));
  assert.equal(rootsAsked, 3);
  step('roots/list_changed: asked again, and the new roots hold');

  // Caps: the structured content is cut as the text is, and the pointers speak the tool's
  // arguments, never the command line's options.
  const capped = await client.callTool({
    name: 'context_pack',
    arguments: { spec, max_lines: 1, max_window_lines: 1, max_callers: 0, max_line_bytes: 16 },
  });
  assert.ok(!capped.isError, JSON.stringify(capped.content));
  const cdoc = capped.structuredContent;
  assert.deepEqual(cdoc.caps, { max_lines: 1, max_window_lines: 1, max_callers: 0, max_line_bytes: 16 });
  assert.equal(cdoc.cut, true);
  assert.equal(cdoc.specs[0].id, 'plan');
  const cutWindow = cdoc.specs[0].windows[0];
  assert.deepEqual(cutWindow.cut, { by: 'max_lines', lift: { only: ['1'] } });
  assert.deepEqual(cutWindow.lines, []);
  const markers = capped.content[0].text.split('\n').filter((l) => /not shown|same call with|^…/.test(l));
  assert.ok(markers.length >= 2, capped.content[0].text);
  for (const m of markers) assert.ok(!m.includes('--'), `a cut marker in CLI syntax: ${m}`);
  assert.match(capped.content[0].text, /not shown \(over max_lines 1\); print one with:\n  same call with only: \["1"\]/);
  step('caps: structuredContent cut as the text, pointers in the tool\'s arguments');

  // Ad hoc anchors with base; a spec without id is null.
  const adhoc = await client.callTool({ name: 'context_pack', arguments: { anchor: ['a.c:3-4@L3'], base, table_only: true } });
  assert.ok(!adhoc.isError, JSON.stringify(adhoc.content));
  assert.equal(adhoc.structuredContent.specs[0].id, null);
  assert.equal(adhoc.structuredContent.specs[0].anchors[0].status, 'MOVED');
  const { id: _id, ...noId } = spec;
  const anonymous = await client.callTool({ name: 'context_pack', arguments: { spec: noId, table_only: true } });
  assert.equal(anonymous.structuredContent.specs[0].id, null);
  const noBase = await client.callTool({ name: 'context_pack', arguments: { anchor: ['a.c:3'] } });
  assert.equal(noBase.isError, true);
  assert.match(noBase.content[0].text, /^anchor needs base/);
  step('anchor with base, and a null id');

  // A slow call with a progressToken: progress arrives as anchors resolve, and a ping sent
  // once the first progress is in is answered before the call's result.
  const order = [];
  const progress = [];
  let pinged;
  const slowCall = client.callTool({ name: 'context_pack', arguments: { ...slow, table_only: true } }, undefined, {
    onprogress: (p) => {
      progress.push(p);
      if (!pinged) pinged = client.ping().then(() => order.push('ping'));
    },
    timeout: 110_000,
  }).then((r) => { order.push('result'); return r; });
  const slowResult = await slowCall;
  await pinged;
  assert.ok(!slowResult.isError, JSON.stringify(slowResult.content).slice(0, 500));
  assert.equal(slowResult.structuredContent.specs.length, 3000);
  assert.deepEqual(order, ['ping', 'result'], 'the ping was answered while the call ran');
  assert.ok(progress.length >= 2, `progress notifications: ${progress.length}`);
  // Progress counts anchors: two a spec.
  assert.ok(progress.every((p, i) => p.total === 6000 && (i === 0 || p.progress > progress[i - 1].progress)));
  step(`progress: ${progress.length} notifications, and a ping answered during the call`);

  // Cancelled once its first progress is in: the call stops, and no result is ever sent.
  const abort = new AbortController();
  const cancelled = client.callTool({ name: 'context_pack', arguments: slow }, undefined, {
    signal: abort.signal,
    onprogress: () => abort.abort('no longer wanted'),
  });
  await assert.rejects(cancelled);
  const cancelledId = sent.filter((m) => m.method === 'tools/call').at(-1).id;
  assert.ok(sent.some((m) => m.method === 'notifications/cancelled' && m.params.requestId === cancelledId));
  await client.ping();
  const after = await client.callTool({ name: 'context_pack', arguments: { spec, table_only: true } });
  assert.ok(!after.isError);
  step('notifications/cancelled: the call is dropped, and the server answers on');

  await client.close();
  const { code, signal } = await exited;
  const answeredCancelled = rawOut.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l))
    .filter((m) => m.id === cancelledId && !m.method);
  assert.deepEqual(answeredCancelled, [], 'a cancelled call sends no result');
  assert.equal(signal, null, `the server was killed by ${signal}: it did not exit on end of input`);
  assert.equal(code, 0);
  assert.equal(serverStderr, '', 'nothing on stderr');
  // Progress the server sent before it read the cancellation may come after the SDK forgot
  // the call's token: the SDK reports it, and ignores it, as the spec says a receiver should.
  const cancelledToken = sent.find((m) => m.id === cancelledId).params._meta.progressToken;
  const late = (e) => String(e).includes('progress notification for an unknown token')
    && String(e).includes(`"progressToken":${JSON.stringify(cancelledToken)}`);
  assert.deepEqual(transportErrors.filter((e) => !late(e)), []);
  step('close: end of input, exit status 0');

  // A client without roots: the server's directory (the repository) is the one root.
  const plainTransport = new StdioClientTransport({ command: bin, args: ['mcp'], cwd: repo });
  const plain = new Client({ name: 'context-pack-e2e-plain', version: '1.0.0' });
  await plain.connect(plainTransport);
  const here = await plain.callTool({ name: 'context_pack', arguments: { spec, table_only: true } });
  assert.ok(!here.isError, JSON.stringify(here.content));
  const beside = await plain.callTool({ name: 'context_pack', arguments: { spec: specFile } });
  assert.equal(beside.isError, true);
  assert.match(beside.content[0].text,
    /^spec .*plan\.json is outside the server's directory .*\/repo \(the client declares no roots\)/);
  await plain.close();
  step('a client without roots: only the server\'s directory is read');

  // A client that starts the server from /, as some desktop clients do, with one root: a
  // relative spec and repo are read in that root.
  const fromRoot = new Client({ name: 'context-pack-e2e-slash', version: '1.0.0' },
    { capabilities: { roots: { listChanged: true } } });
  fromRoot.setRequestHandler(ListRootsRequestSchema, async () => ({
    roots: [{ uri: pathToFileURL(dir).href, name: 'fixture' }],
  }));
  await fromRoot.connect(new StdioClientTransport({ command: bin, args: ['mcp'], cwd: '/' }));
  const relative = await fromRoot.callTool({
    name: 'context_pack',
    arguments: { spec: path.basename(specFile), repo: path.basename(repo), table_only: true },
  });
  assert.ok(!relative.isError, JSON.stringify(relative.content));
  assert.match(relative.content[0].text, /SAME|MOVED|TOUCHED|RENAMED/);
  const outside = await fromRoot.callTool({ name: 'context_pack', arguments: { spec: '/etc/passwd' } });
  assert.equal(outside.isError, true);
  await fromRoot.close();
  step('a client that starts the server from / with roots: relative paths are read in its root');
} finally {
  await client.close().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log('PASS: the MCP SDK client and context-pack mcp agree');
