// Prints the callers the TypeScript language service finds for every
// function, method, getter and function-valued variable or field that
// search/chunk makes a symbol of (module level, namespaces, class members),
// as JSON:
//
//   {"targets": [{"path": "src/a.ts", "name": "Class.method", "line": 12, "kind": "method"}, …],
//    "calls":   [{"to": 0, "path": "src/b.ts", "line": 40}, …]}
//
//   node scripts/refparse/ts-calls.mjs ROOT [DIR …]
//
// DIRs (relative to ROOT, default ".") are walked for .ts/.tsx/.mts/.cts/.js/
// .jsx/.mjs/.cjs files (node_modules, dot folders and .d.ts files skipped);
// ROOT/tsconfig.json, when there is one, gives the compiler options (its
// paths, its module resolution), the files are the walked ones. The
// typescript package is found through NODE_PATH (see install.sh).
//
// A target's callers are the call hierarchy's incoming calls (a call site
// each: "path" and "line" of the call); a getter's are the reads of the
// property the references find (a read of obj.prop runs the getter). Of
// those, only the calls whose name the checker resolves to the target
// itself count: the call hierarchy also lists calls of an interface's
// method, or a base class's, that the target implements or overrides
// (map.get() of any Map for a class implementing Map), which are calls
// through dispatch, not of the target.
// "line" of a target is the line of its name, the first overload's for an
// overloaded function, as the chunker gives a symbol's declaration line.
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const ts = require('typescript')

const root = path.resolve(process.argv[2])
const dirs = process.argv.length > 3 ? process.argv.slice(3) : ['.']
const exts = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'])
const files = []
const walk = (dir) => {
  for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (e.name.startsWith('.') || e.name === 'node_modules') continue
    const rel = dir === '.' ? e.name : dir + '/' + e.name
    if (e.isDirectory()) walk(rel)
    else if (e.isFile() && exts.has(path.extname(e.name)) && !e.name.endsWith('.d.ts')) files.push(rel)
  }
}
for (const d of dirs) walk(d.replace(/\/+$/, '') || '.')
files.sort()

let options = {
  target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowJs: true, jsx: ts.JsxEmit.Preserve, strict: true, skipLibCheck: true, noEmit: true,
  allowImportingTsExtensions: true, experimentalDecorators: true,
}
const tsconfig = path.join(root, 'tsconfig.json')
if (fs.existsSync(tsconfig)) {
  const cfg = ts.readConfigFile(tsconfig, ts.sys.readFile)
  if (!cfg.error) {
    const parsed = ts.parseJsonConfigFileContent(cfg.config, ts.sys, root)
    options = { ...parsed.options, allowJs: true, noEmit: true }
  }
}

const abs = (rel) => path.join(root, rel)
const versions = new Map(files.map((f) => [abs(f), '1']))
const host = {
  getScriptFileNames: () => files.map(abs),
  getScriptVersion: (f) => versions.get(f) || '1',
  getScriptSnapshot: (f) => (fs.existsSync(f) ? ts.ScriptSnapshot.fromString(fs.readFileSync(f, 'utf8')) : undefined),
  getCurrentDirectory: () => root,
  getCompilationSettings: () => options,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists,
  readFile: ts.sys.readFile,
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
}
const service = ts.createLanguageService(host, ts.createDocumentRegistry())
const program = service.getProgram()
const checker = program.getTypeChecker()

const rel = (f) => path.relative(root, f).split(path.sep).join('/')
const isFn = (n) => n && (ts.isArrowFunction(n) || ts.isFunctionExpression(n))

// targets: the declarations the chunker makes a callable symbol of.
const targets = []
for (const relPath of files) {
  const sf = program.getSourceFile(abs(relPath))
  if (!sf) continue
  const lineOf = (pos) => sf.getLineAndCharacterOfPosition(pos).line + 1
  const add = (nameNode, name, kind, decl) => {
    // An overloaded function is one symbol, declared where its first
    // signature is.
    let line = lineOf(nameNode.getStart(sf))
    const sym = checker.getSymbolAtLocation(nameNode)
    if (sym && sym.declarations && sym.declarations.length > 1 && kind !== 'getter') {
      const same = sym.declarations.filter((d) => d.kind === decl.kind && d.getSourceFile() === sf)
      if (same.length) line = Math.min(...same.map((d) => lineOf(d.name ? d.name.getStart(sf) : d.getStart(sf))))
    }
    targets.push({ path: relPath, name, line, kind, pos: nameNode.getStart(sf) })
  }
  const visit = (stmts, prefix) => {
    for (const st of stmts) {
      if (ts.isFunctionDeclaration(st) && st.name && st.body) add(st.name, prefix + st.name.text, 'func', st)
      else if (ts.isVariableStatement(st)) {
        for (const d of st.declarationList.declarations) {
          if (ts.isIdentifier(d.name) && isFn(d.initializer)) add(d.name, prefix + d.name.text, 'func', d)
        }
      } else if (ts.isClassDeclaration(st) && st.name) {
        const cls = prefix + st.name.text
        for (const m of st.members) {
          if (!m.name || !(ts.isIdentifier(m.name) || ts.isPrivateIdentifier(m.name))) continue
          const name = cls + '.' + m.name.text
          if (ts.isMethodDeclaration(m) && m.body) add(m.name, name, 'method', m)
          else if (ts.isGetAccessorDeclaration(m) && m.body) add(m.name, name, 'getter', m)
          else if (ts.isPropertyDeclaration(m) && isFn(m.initializer)) add(m.name, name, 'method', m)
        }
      } else if (ts.isModuleDeclaration(st) && st.body && ts.isModuleBlock(st.body) && ts.isIdentifier(st.name)) {
        visit(st.body.statements, prefix + st.name.text + '.')
      }
    }
  }
  visit(sf.statements, '')
}

// symbolAt returns the symbol the identifier at pos names, through an
// import's alias to what it imports.
const symbolAt = (sf, pos) => {
  let found
  const visit = (n) => {
    if (pos < n.getStart(sf) || pos >= n.end) return
    if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) found = n
    n.forEachChild(visit)
  }
  visit(sf)
  let sym = found && checker.getSymbolAtLocation(found)
  if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym)
  return sym
}

const calls = []
targets.forEach((t, i) => {
  const file = abs(t.path)
  const self = symbolAt(program.getSourceFile(file), t.pos)
  const seen = new Set()
  const note = (f, line, pos) => {
    // Only a call the compiler resolves to the target itself: not one of
    // an interface's method or a base's that the target implements or
    // overrides, which the call hierarchy lists too.
    // (A class's member seen through a subclass is another symbol object
    // with the same declaration.)
    const sym = symbolAt(program.getSourceFile(f), pos)
    if (!sym || !self || !(sym.declarations || []).some((d) => (self.declarations || []).includes(d))) return
    const k = f + ':' + line
    if (!seen.has(k)) {
      seen.add(k)
      calls.push({ to: i, path: rel(f), line })
    }
  }
  if (t.kind === 'getter') {
    for (const r of service.findReferences(file, t.pos) || []) {
      for (const ref of r.references) {
        if (ref.isDefinition || ref.isWriteAccess) continue
        const sf = program.getSourceFile(ref.fileName)
        if (!sf) continue
        note(ref.fileName, sf.getLineAndCharacterOfPosition(ref.textSpan.start).line + 1, ref.textSpan.start)
      }
    }
    return
  }
  let incoming = []
  try {
    if (service.prepareCallHierarchy(file, t.pos)) incoming = service.provideCallHierarchyIncomingCalls(file, t.pos) || []
  } catch (e) {
    process.stderr.write(`ts-calls: ${t.path}:${t.line} ${t.name}: ${e.message}\n`)
  }
  for (const c of incoming) {
    const sf = program.getSourceFile(c.from.file)
    if (!sf) continue
    for (const span of c.fromSpans) note(c.from.file, sf.getLineAndCharacterOfPosition(span.start).line + 1, span.start)
  }
})
calls.sort((a, b) => a.to - b.to || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line))
const walked = new Set(files)
const out = {
  targets: targets.map(({ path, name, line, kind }) => ({ path, name, line, kind })),
  calls: calls.filter((c) => walked.has(c.path)),
}
process.stdout.write('{"targets": [\n' + out.targets.map((t) => '  ' + JSON.stringify(t)).join(',\n') +
  '\n], "calls": [\n' + out.calls.map((c) => '  ' + JSON.stringify(c)).join(',\n') + '\n]}\n')
