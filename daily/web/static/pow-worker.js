// The proof-of-work search off the page's thread (started by solvePow in pow.js):
// receives {challenge, bits}, answers {nonce}.
import { searchNonce } from "./pow.js";

const BATCH = 1 << 20;

self.onmessage = (event) => {
  const { challenge, bits } = event.data;
  for (let from = 0; ; from += BATCH) {
    const found = searchNonce(challenge, bits, from, BATCH);
    if (found !== null) {
      self.postMessage({ nonce: found });
      return;
    }
  }
};
