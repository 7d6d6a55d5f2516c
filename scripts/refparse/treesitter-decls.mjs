#!/usr/bin/env node
// Prints the declarations tree-sitter finds in Rust or Java files, as the
// reference for agentos's chunker. Install the parsers first:
//
//   dir=$(scripts/refparse/install-treesitter.sh)
//   NODE_PATH=$dir/node_modules node scripts/refparse/treesitter-decls.mjs rust ROOT [FILE...]
//
// FILEs are relative to ROOT (default: every .rs or .java file under it).
// Prints JSON {"path": [{"name", "kind", "line"}]}; files with syntax errors
// are left out. Declarations follow the chunker's rules:
//   Rust: fn (a method, "Type.name", in an impl or trait), struct, enum,
//   union, trait, type, const, static, macro_rules!, impl blocks (named by
//   their type's last path segment) and inline mod blocks; items in impl and
//   trait blocks are qualified by the type or trait, items in a mod are not;
//   items inside function bodies are left out.
//   Java: classes, interfaces, enums, records and annotation types, qualified
//   by their enclosing types ("Outer.Inner"); methods, constructors and
//   annotation elements ("Type.name"); constants, static final fields and
//   fields of interfaces, named by their first declarator ("Type.NAME");
//   nothing inside a method or an anonymous class body.
// "line" is the line of the declaration's name.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const require = createRequire(path.join(process.env.NODE_PATH || process.cwd(), "x.js"));
const { Parser, Language } = require("web-tree-sitter");

const [lang, root, ...args] = process.argv.slice(2);
const ext = { rust: ".rs", java: ".java" }[lang];
if (!ext || !root) {
  console.error("usage: ts-decls.mjs rust|java ROOT [FILE...]");
  process.exit(2);
}

function walkDir(dir, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.name.startsWith(".")) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walkDir(p, out);
    else if (e.name.endsWith(ext)) out.push(path.relative(root, p));
  }
  return out;
}

const line = (n) => n.startPosition.row + 1;

// lastSegment names an impl by its type: Foo for a::b::Foo<T>, &mut Foo or dyn Foo.
function typeName(n) {
  switch (n.type) {
    case "type_identifier":
    case "identifier":
      return n;
    case "generic_type":
    case "reference_type":
    case "pointer_type":
      return typeName(n.childForFieldName("type"));
    case "scoped_type_identifier":
      return typeName(n.childForFieldName("name"));
    case "dynamic_type":
    case "abstract_type":
      return typeName(n.childForFieldName("trait"));
  }
  return null;
}

function rust(node, prefix, out) {
  for (const n of node.namedChildren) {
    const name = n.childForFieldName("name");
    // A raw identifier (r#async) is named without its r#.
    const add = (nm, kind, at) => out.push({ name: prefix + nm.replace(/^r#/, ""), kind, line: line(at) });
    switch (n.type) {
      case "function_item":
      case "function_signature_item":
        add(name.text, prefix ? "method" : "func", name);
        break;
      case "struct_item":
      case "enum_item":
      case "union_item":
      case "type_item":
      case "associated_type":
        add(name.text, "type", name);
        break;
      case "const_item":
        if (name.text !== "_") add(name.text, "const", name);
        break;
      case "static_item":
        add(name.text, "var", name);
        break;
      case "macro_definition":
        add(name.text, "func", name);
        break;
      case "trait_item":
        add(name.text, "type", name);
        rust(n.childForFieldName("body"), prefix + name.text.replace(/^r#/, "") + ".", out);
        break;
      case "impl_item": {
        const t = typeName(n.childForFieldName("type"));
        if (!t) break;
        add(t.text, "container", t);
        const body = n.childForFieldName("body");
        if (body) rust(body, prefix + t.text.replace(/^r#/, "") + ".", out);
        break;
      }
      case "mod_item": {
        const body = n.childForFieldName("body");
        if (body) {
          add(name.text, "container", name);
          rust(body, prefix, out);
        }
        break;
      }
      case "foreign_mod_item": {
        const body = n.childForFieldName("body");
        if (body) rust(body, prefix, out);
        break;
      }
    }
  }
}

const javaTypes = new Set([
  "class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration",
]);
const javaMembers = new Set([
  "method_declaration", "constructor_declaration", "compact_constructor_declaration", "annotation_type_element_declaration",
]);

// isConstant: a static final field, or any field of an interface or
// annotation type.
function isConstant(field, body) {
  if (body.type === "interface_body" || body.type === "annotation_type_body") return true;
  const mods = field.namedChildren.find((c) => c.type === "modifiers");
  const words = mods ? mods.children.map((c) => c.type) : [];
  return words.includes("static") && words.includes("final");
}

function java(node, prefix, out) {
  for (const n of node.namedChildren) {
    const name = n.childForFieldName("name");
    if (javaTypes.has(n.type)) {
      out.push({ name: prefix + name.text, kind: "type", line: line(name) });
      const body = n.childForFieldName("body");
      if (body) java(body, prefix + name.text + ".", out);
    } else if (javaMembers.has(n.type) && prefix) {
      out.push({ name: prefix + name.text, kind: "method", line: line(name) });
    } else if (n.type === "enum_body_declarations") {
      java(n, prefix, out);
    } else if (prefix && (n.type === "constant_declaration" || n.type === "field_declaration" && isConstant(n, node))) {
      const first = n.childForFieldName("declarator").childForFieldName("name");
      out.push({ name: prefix + first.text, kind: "const", line: line(first) });
    }
  }
}

await Parser.init();
const grammar = path.join(path.dirname(require.resolve(`tree-sitter-${lang}/package.json`)), `tree-sitter-${lang}.wasm`);
const parser = new Parser();
parser.setLanguage(await Language.load(grammar));
const files = args.length ? args : walkDir(root, []);
const result = {};
for (const f of files) {
  const tree = parser.parse(fs.readFileSync(path.join(root, f), "utf8"));
  if (tree.rootNode.hasError) continue;
  const out = [];
  (lang === "rust" ? rust : java)(tree.rootNode, "", out);
  result[f.split(path.sep).join("/")] = out;
  tree.delete();
}
console.log(JSON.stringify(result, null, 1));
