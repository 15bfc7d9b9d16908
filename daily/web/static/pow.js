// Proof-of-work for a new player (docs/fairplay.md): find a nonce such that
// SHA-256("challenge:nonce") starts with `bits` zero bits (bits <= 32).
// solvePow runs the search in a Web Worker (pow-worker.js) so the page stays responsive,
// and falls back to short slices on the page where module workers are missing.
// A small SHA-256 of one block: "challenge:nonce" is short ASCII, written in place.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const W = new Uint32Array(64);
const H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

// The first 32 bits of SHA-256 of a padded one-block message (64 bytes).
function headOfBlock(block) {
  for (let i = 0; i < 16; i += 1) {
    const j = i * 4;
    W[i] = (block[j] << 24) | (block[j + 1] << 16) | (block[j + 2] << 8) | block[j + 3];
  }
  for (let i = 16; i < 64; i += 1) {
    const a = W[i - 15], b = W[i - 2];
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0;
  }
  let a = H0[0], b = H0[1], c = H0[2], d = H0[3], e = H0[4], f = H0[5], g = H0[6], h = H0[7];
  for (let i = 0; i < 64; i += 1) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i] + W[i]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
  }
  return (H0[0] + a) >>> 0;
}

// The first 32 bits of SHA-256 of a short ASCII text (at most 55 characters).
export function sha256Head(text) {
  if (text.length > 55) throw new RangeError("one block only");
  const block = new Uint8Array(64);
  for (let i = 0; i < text.length; i += 1) block[i] = text.charCodeAt(i);
  block[text.length] = 0x80;
  const bits = text.length * 8;
  block[62] = bits >>> 8; block[63] = bits & 0xff;
  return headOfBlock(block);
}

// The first nonce in [from, from + count) whose hash has `bits` leading zero bits, or null.
export function searchNonce(challenge, bits, from, count) {
  const prefix = `${challenge}:`;
  const block = new Uint8Array(64);
  for (let i = 0; i < prefix.length; i += 1) block[i] = prefix.charCodeAt(i);
  const stop = from + count;
  for (let nonce = from; nonce < stop; nonce += 1) {
    const digits = String(nonce);
    const length = prefix.length + digits.length;
    block.fill(0, prefix.length);
    for (let i = 0; i < digits.length; i += 1) block[prefix.length + i] = digits.charCodeAt(i);
    block[length] = 0x80;
    block[62] = (length * 8) >>> 8; block[63] = (length * 8) & 0xff;
    const head = headOfBlock(block);
    if ((head === 0 ? 32 : Math.clz32(head)) >= bits) return digits;
  }
  return null;
}

// On the page, in slices of SLICE hashes with a pause between them (the fallback).
const SLICE = 20000;
async function solveHere(challenge, bits) {
  for (let from = 0; ; from += SLICE) {
    const found = searchNonce(challenge, bits, from, SLICE);
    if (found !== null) return found;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

// A nonce for the challenge: in a Web Worker when the browser has module workers.
export function solvePow(challenge, bits) {
  if (bits <= 0) return Promise.resolve("0");
  let worker;
  try {
    worker = new Worker(new URL("./pow-worker.js", import.meta.url), { type: "module" });
  } catch {
    return solveHere(challenge, bits);
  }
  return new Promise((resolve) => {
    const fallback = () => { worker.terminate(); resolve(solveHere(challenge, bits)); };
    worker.onmessage = (event) => { worker.terminate(); resolve(String(event.data.nonce)); };
    worker.onerror = (event) => { event.preventDefault(); fallback(); };
    worker.postMessage({ challenge, bits });
  });
}
