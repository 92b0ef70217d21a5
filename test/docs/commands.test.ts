/**
 * The commands the documentation shows exist, and every command that exists
 * is documented. The CLI's commands are read from server/cli.ts itself (the
 * cases of its command switch and the lines of its USAGE), the `id`
 * subcommands from server/ids/cli.ts, the loader's options from its usage, the
 * npm scripts from package.json and the readiness profiles from
 * lib/check/profiles.ts. A command counts as shown when it is written as code
 * (a fenced block or an inline span) in README.md, ARCHITECTURE.md or docs/.
 */
import fs from 'node:fs';
import { expect } from 'chai';
import ts from 'typescript';
import { projectPath } from '../../server/paths';
import { PROFILE_NAMES } from '../../lib/check/profiles';
import { LOAD_USAGE } from '../../server/loader/cli';
import { codeOf, documentationFiles, readMarkdown, tableRows, unquote } from '../helpers/markdown';

/** A source file of the project, parsed (not run: server/cli.ts runs its command when loaded). */
function parse(relative: string): ts.SourceFile {
  return ts.createSourceFile(relative, fs.readFileSync(projectPath(relative), 'utf8'), ts.ScriptTarget.ES2022, true);
}

function walk(node: ts.Node, visit: (n: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

/** The text of the top-level `const USAGE = `…`` of a source file. */
function usageOf(source: ts.SourceFile): string {
  let usage: string | undefined;
  walk(source, (n) => {
    if (ts.isVariableDeclaration(n) && n.name.getText() === 'USAGE' && n.initializer && ts.isTemplateLiteral(n.initializer)) {
      usage = n.initializer.getText().slice(1, -1);
    }
  });
  if (usage === undefined) throw new Error(`${source.fileName} has no USAGE template`);
  return usage;
}

/** The commands server/cli.ts switches on in `main` (string cases of `switch (command)`), options such as --help left out. */
function switchedCommands(source: ts.SourceFile): string[] {
  const out: string[] = [];
  walk(source, (n) => {
    if (!ts.isFunctionDeclaration(n) || n.name?.text !== 'main') return;
    walk(n, (s) => {
      if (!ts.isSwitchStatement(s) || s.expression.getText() !== 'command') return;
      for (const clause of s.caseBlock.clauses) {
        if (ts.isCaseClause(clause) && ts.isStringLiteral(clause.expression) && /^[a-z]/.test(clause.expression.text)) out.push(clause.expression.text);
      }
    });
  });
  return out;
}

/** Where a documented command was seen. */
interface Mention {
  readonly file: string;
  readonly line: number;
  readonly command: string;
  readonly sub: string | undefined;
}

// `oai-steward` (or `npx oai-steward`) where a command line starts, then its
// --config option if any, then the command and the word after it.
const CLI_CALL = /(?:^|[\s|;&(])(?:npx\s+)?oai-steward((?:\s+--config(?:=\S+|\s+\S+))*)\s+([a-z][a-z0-9-]*)(?:\s+([a-z][a-z0-9-]*))?/g;
const NPM_CALL = /(?:^|[\s|;&(])npm\s+(?:(start|test)\b|run(?:-script)?\s+([a-z][a-z0-9:-]*))/g;

function mentions(pattern: RegExp, pick: (m: RegExpMatchArray) => { command: string; sub: string | undefined }): Mention[] {
  const out: Mention[] = [];
  for (const file of documentationFiles()) {
    for (const code of codeOf(readMarkdown(file).text)) {
      for (const m of code.value.matchAll(pattern)) out.push({ file, line: code.line, ...pick(m) });
    }
  }
  return out;
}

const where = (ms: readonly Mention[]): string[] => ms.map((m) => `${m.file}:${m.line}: ${m.command}${m.sub === undefined ? '' : ` ${m.sub}`}`);

describe('the commands the documentation shows', () => {
  const cli = parse('server/cli.ts');
  const usage = usageOf(cli);
  // USAGE lists each command at the start of a line indented by two spaces.
  const usageCommands = [...usage.matchAll(/^ {2}([a-z][a-z0-9-]*)/gm)].map((m) => m[1] as string);
  const switched = switchedCommands(cli);
  const idCommands = [...usageOf(parse('server/ids/cli.ts')).matchAll(/oai-steward id ([a-z][a-z0-9-]*)/g)].map((m) => m[1] as string);
  const cliMentions = mentions(CLI_CALL, (m) => ({ command: m[2] as string, sub: m[3] }));

  it('read the CLI: its switch and its USAGE name the same commands (help aside)', () => {
    expect(switched).to.include.members(['serve', 'load', 'check', 'id', 'help']);
    expect([...usageCommands].sort()).to.deep.equal(switched.filter((c) => c !== 'help').sort());
  });

  it('are commands of the CLI: every `oai-steward COMMAND` in README.md, ARCHITECTURE.md and docs/ is one', () => {
    expect(cliMentions.length, 'no command found in the docs: the reader is broken').to.be.greaterThan(10);
    expect(where(cliMentions.filter((m) => !switched.includes(m.command))), 'not a command of server/cli.ts').to.deep.equal([]);
  });

  it('name only `id` subcommands server/ids/cli.ts has', () => {
    const ids = cliMentions.filter((m) => m.command === 'id' && m.sub !== undefined);
    expect(ids.length).to.be.greaterThan(0);
    expect(where(ids.filter((m) => !idCommands.includes(m.sub as string))), 'not an id subcommand').to.deep.equal([]);
  });

  it('name only npm scripts package.json has', () => {
    const scripts = Object.keys((JSON.parse(fs.readFileSync(projectPath('package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    const npm = mentions(NPM_CALL, (m) => ({ command: (m[1] ?? m[2]) as string, sub: undefined }));
    expect(npm.map((m) => m.command)).to.include.members(['start', 'test']);
    expect(where(npm.filter((m) => !scripts.includes(m.command))), 'not a script of package.json').to.deep.equal([]);
  });
});

describe('every command the CLI has', () => {
  const cli = parse('server/cli.ts');
  const docs = documentationFiles().filter((f) => f.startsWith('docs/'));
  const inDocs = new Set<string>();
  const idInDocs = new Set<string>();
  for (const file of docs) {
    for (const code of codeOf(readMarkdown(file).text)) {
      for (const m of code.value.matchAll(CLI_CALL)) {
        inDocs.add(m[2] as string);
        if (m[2] === 'id' && m[3] !== undefined) idInDocs.add(m[3]);
      }
    }
  }

  for (const command of switchedCommands(cli)) {
    it(`is documented in docs/: oai-steward ${command}`, () => {
      expect(inDocs.has(command), `no page of docs/ shows \`oai-steward ${command}\` as code`).to.equal(true);
    });
  }

  for (const sub of [...usageOf(parse('server/ids/cli.ts')).matchAll(/oai-steward id ([a-z][a-z0-9-]*)/g)].map((m) => m[1] as string)) {
    it(`is documented in docs/: oai-steward id ${sub}`, () => {
      expect(idInDocs.has(sub), `no page of docs/ shows \`oai-steward id ${sub}\` as code`).to.equal(true);
    });
  }

  it('has every readiness profile in the profiles table of docs/readiness-check.md, and no other', () => {
    const documented = tableRows(readMarkdown('docs/readiness-check.md').text, 'profile').map((r) => unquote(r.value[0] ?? ''));
    expect([...documented].sort()).to.deep.equal([...PROFILE_NAMES].sort());
  });
});

describe('the options of oai-steward load', () => {
  it('are the rows of the option table of docs/loading.md, no more and no fewer', () => {
    // LOAD_USAGE lists each option at the start of an indented line.
    const known = [...LOAD_USAGE.matchAll(/^ +(--[a-z][a-z-]*)/gm)].map((m) => m[1] as string);
    const documented = tableRows(readMarkdown('docs/loading.md').text, 'option').map((r) => unquote(r.value[0] ?? '').split(' ')[0] as string);
    expect(known.length).to.be.greaterThan(5);
    expect([...documented].sort()).to.deep.equal([...known].sort());
  });
});
