// Prints, per file, every declaration the TypeScript compiler sees, named
// and placed the way search/chunk names and places its chunks, as JSON:
//
//   {"path": [{"name": "Class.method", "kind": "method", "line": 12, "start": 9}, …], …}
//
//   node scripts/refparse/ts-decls.mjs ROOT [FILE …]
//
// FILEs are relative to ROOT; without them every .ts/.tsx/.mts/.cts/.js/
// .jsx/.mjs/.cjs file under ROOT is read (node_modules and dot folders
// skipped). The typescript package is found through NODE_PATH (see
// install.sh). "line" is the 1-based line of the declaration's name, or of
// its first token after decorators when it has none; "start" is the line
// its JSDoc or first decorator starts on, when it has either. What counts as a
// declaration, and how it is named, is documented in search/chunk/typescript.go:
// module-level declarations, namespace members, class, interface and object
// type alias members, CommonJS exports and functions assigned to properties
// at module level; consecutive overload signatures are one declaration.
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const ts = require('typescript')

const root = process.argv[2]
let files = process.argv.slice(3)
const exts = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'])
if (files.length === 0) {
  const walk = (dir) => {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      if (e.name.startsWith('.') || e.name === 'node_modules') continue
      const rel = dir ? dir + '/' + e.name : e.name
      if (e.isDirectory()) walk(rel)
      else if (e.isFile() && exts.has(path.extname(e.name))) files.push(rel)
    }
  }
  walk('')
  files.sort()
}

function scriptKind(p) {
  switch (path.extname(p)) {
    case '.tsx': return ts.ScriptKind.TSX
    case '.jsx': return ts.ScriptKind.JSX
    case '.js': case '.mjs': case '.cjs': return ts.ScriptKind.JSX
    default: return ts.ScriptKind.TS
  }
}

const out = {}
for (const rel of files) {
  const text = fs.readFileSync(path.join(root, rel), 'utf8')
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, scriptKind(rel))
  const line = (pos) => sf.getLineAndCharacterOfPosition(pos).line + 1
  const decls = []
  const headStart = (node) => {
    const mods = (ts.canHaveModifiers(node) && ts.getModifiers(node)) || []
    if (mods.length) return mods[0].getStart(sf)
    const decos = (ts.canHaveDecorators(node) && ts.getDecorators(node)) || []
    if (decos.length) return ts.skipTrivia(text, decos[decos.length - 1].end)
    return node.getStart(sf)
  }
  const isDefault = (node) => (ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Default) !== 0
  const isFunctionLike = (e) => e && (ts.isArrowFunction(e) || ts.isFunctionExpression(e))
  const unwrap = (e) => {
    while (e && (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression?.(e))) e = e.expression
    return e
  }
  const memberName = (n) => {
    if (ts.isComputedPropertyName(n)) return n.getText(sf).replace(/\s+/g, '')
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) return n.text
    return n.getText(sf)
  }
  const bindingNames = (b, acc) => {
    if (ts.isIdentifier(b)) acc.push(b.text)
    else for (const el of b.elements) if (!ts.isOmittedExpression(el)) bindingNames(el.name, acc)
    return acc
  }
  // push adds a declaration; an overload signature's next overload or
  // implementation, right after it, is the same declaration.
  let last = null
  const push = (name, kind, pos, bodiless, node) => {
    if (last && last.bodiless && last.name === name && last.kind === kind) {
      last.bodiless = bodiless
      return
    }
    last = { name, kind, line: line(pos), bodiless }
    const start = line(node.getStart(sf, true))
    if (start < last.line) last.start = start
    decls.push(last)
  }
  const members = (list, prefix) => {
    last = null
    for (const m of list) {
      let kind
      switch (m.kind) {
        case ts.SyntaxKind.MethodDeclaration: case ts.SyntaxKind.MethodSignature:
        case ts.SyntaxKind.Constructor: case ts.SyntaxKind.GetAccessor: case ts.SyntaxKind.SetAccessor:
          kind = 'method'; break
        case ts.SyntaxKind.PropertyDeclaration:
          kind = isFunctionLike(unwrap(m.initializer)) || (m.initializer && ts.isClassExpression(unwrap(m.initializer))) ? 'method' : 'var'; break
        case ts.SyntaxKind.PropertySignature:
          kind = 'var'; break
        case ts.SyntaxKind.IndexSignature:
          push(prefix + '[index]', 'var', headStart(m), false, m); continue
        default:
          last = null; continue
      }
      if (m.kind === ts.SyntaxKind.Constructor) {
        const kw = m.getChildren(sf).find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword || (c.kind === ts.SyntaxKind.StringLiteral))
        push(prefix + 'constructor', kind, kw ? kw.getStart(sf) : headStart(m), !m.body, m)
        continue
      }
      const bodiless = (m.kind === ts.SyntaxKind.MethodDeclaration || m.kind === ts.SyntaxKind.MethodSignature) && !m.body
      push(prefix + memberName(m.name), kind, m.name.getStart(sf), bodiless, m)
    }
    last = null
  }
  const statements = (list, prefix, top) => {
    last = null
    for (const s of list) {
      if (ts.isFunctionDeclaration(s)) {
        if (!s.name && !isDefault(s)) continue
        push(prefix + (s.name ? s.name.text : 'default'), 'func', s.name ? s.name.getStart(sf) : headStart(s), !s.body, s)
      } else if (ts.isClassDeclaration(s)) {
        if (!s.name && !isDefault(s)) continue
        const name = prefix + (s.name ? s.name.text : 'default')
        push(name, 'type', s.name ? s.name.getStart(sf) : headStart(s), false, s)
        members(s.members, name + '.')
      } else if (ts.isInterfaceDeclaration(s)) {
        push(prefix + s.name.text, 'type', s.name.getStart(sf), false, s)
        members(s.members, prefix + s.name.text + '.')
      } else if (ts.isTypeAliasDeclaration(s)) {
        push(prefix + s.name.text, 'type', s.name.getStart(sf), false, s)
        // Members of an object type the alias starts with: { … },
        // { … } & T, { … }[K].
        let lit = s.type
        for (;;) {
          if (ts.isIntersectionTypeNode(lit) || ts.isUnionTypeNode(lit)) lit = lit.types[0]
          else if (ts.isIndexedAccessTypeNode(lit)) lit = lit.objectType
          else if (ts.isArrayTypeNode(lit)) lit = lit.elementType
          else break
        }
        if (ts.isTypeLiteralNode(lit) && lit.getStart(sf) === s.type.getStart(sf)) members(lit.members, prefix + s.name.text + '.')
      } else if (ts.isEnumDeclaration(s)) {
        push(prefix + s.name.text, 'type', s.name.getStart(sf), false, s)
      } else if (ts.isModuleDeclaration(s)) {
        const str = ts.isStringLiteral(s.name)
        const global = !str && s.name.text === 'global' && (s.flags & ts.NodeFlags.GlobalAugmentation)
        let name = s.name.text
        let body = s.body
        while (!str && body && ts.isModuleDeclaration(body)) {
          name += '.' + body.name.text
          body = body.body
        }
        const sym = str || global ? name : prefix + name
        push(sym, 'container', s.name.getStart(sf), false, s)
        if (body && ts.isModuleBlock(body)) statements(body.statements, str || global ? prefix : sym + '.', false)
        last = null
      } else if (ts.isVariableStatement(s)) {
        const isConst = (s.declarationList.flags & ts.NodeFlags.Const) !== 0
        s.declarationList.declarations.forEach((d, i) => {
          const init = unwrap(d.initializer)
          let kind = isConst ? 'const' : 'var'
          if (isFunctionLike(init)) kind = 'func'
          else if (init && ts.isClassExpression(init)) kind = 'type'
          const name = ts.isIdentifier(d.name) ? prefix + d.name.text : bindingNames(d.name, []).map((n) => prefix + n).join(', ')
          push(name, kind, d.name.getStart(sf), false, i === 0 ? s : d)
        })
      } else if (ts.isExportAssignment(s) && !s.isExportEquals) {
        const e = unwrap(s.expression)
        push(prefix + 'default', isFunctionLike(e) || (e && ts.isClassExpression(e)) ? 'func' : 'const', headStart(s), false, s)
      } else if (top && ts.isExpressionStatement(s)) {
        assignment(s)
      } else {
        last = null
      }
    }
    last = null
  }
  // CommonJS exports and functions assigned to properties at module level.
  const assignment = (s) => {
    const e = s.expression
    if (!ts.isBinaryExpression(e) || e.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return
    const path = []
    let l = e.left
    while (ts.isPropertyAccessExpression(l)) { path.unshift(l.name.text); l = l.expression }
    if (!ts.isIdentifier(l)) return
    path.unshift(l.text)
    if (path.length < 2) return
    const r = unwrap(e.right)
    const fn = isFunctionLike(r) || (r && ts.isClassExpression(r))
    const kind = !fn ? 'var' : (ts.isClassExpression(r) ? 'type' : 'func')
    const nameLine = e.left.name.getStart(sf)
    if ((path[0] === 'exports' && path.length === 2) || (path[0] === 'module' && path[1] === 'exports' && path.length === 3)) {
      push(path[path.length - 1], kind, nameLine, false, s)
    } else if (path[0] === 'module' && path[1] === 'exports' && path.length === 2) {
      if (!fn) return
      if (r.name) push(r.name.text, kind, r.name.getStart(sf), false, s)
      else push('module.exports', kind, nameLine, false, s)
    } else if (fn && path[0] !== 'module' && path[0] !== 'exports' && path[0] !== 'this') {
      let recv = path.slice(0, -1)
      if (recv.length === 2 && recv[1] === 'prototype') recv = recv.slice(0, 1)
      if (recv.length !== 1) return
      push(recv[0] + '.' + path[path.length - 1], 'method', nameLine, false, s)
    }
  }
  statements(sf.statements, '', true)
  out[rel] = decls.map(({ name, kind, line, start }) => ({ name, kind, line, start }))
}
process.stdout.write(JSON.stringify(out, null, 1) + '\n')
