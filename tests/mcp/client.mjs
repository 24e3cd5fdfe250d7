// End-to-end: the official MCP TypeScript SDK's Client spawns `context-pack mcp` over stdio,
// declaring roots, lists its tool, calls it on a fixture repository built here with git,
// checks the text and structuredContent (which the SDK also validates against the tool's
// outputSchema), checks that bad calls and paths outside the roots are isError results after
// which the server still answers, that changed roots are asked for again, and closes; then a
// client without roots, whose calls read only inside the server's directory.
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
    'at_base', 'base', 'callers_in', 'context', 'max_file_mib', 'max_lines', 'only', 'repo',
    'since', 'spec', 'table_only', 'target',
  ]);
  assert.deepEqual(tool.inputSchema.required, ['spec']);
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

  await client.close();
  const { code, signal } = await exited;
  assert.equal(signal, null, `the server was killed by ${signal}: it did not exit on end of input`);
  assert.equal(code, 0);
  assert.equal(serverStderr, '', 'nothing on stderr');
  assert.deepEqual(transportErrors, []);
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
} finally {
  await client.close().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log('PASS: the MCP SDK client and context-pack mcp agree');
