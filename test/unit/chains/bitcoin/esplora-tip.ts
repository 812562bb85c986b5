/** Esplora's `/blocks` answer for a fake server: the newest blocks, the tip first. */
export interface EsploraBlockSummary {
  height: number;
  timestamp: number;
  mediantime: number;
}

/** Blocks a minute apart with the tip mined at `tipTimeMs` (now by default). */
export function tipBlocks(tip: number, tipTimeMs = Date.now()): EsploraBlockSummary[] {
  const tipTime = Math.floor(tipTimeMs / 1000);
  return Array.from({ length: 10 }, (_, i) => ({
    height: tip - i,
    timestamp: tipTime - 60 * i,
    mediantime: tipTime - 60 * (i + 5),
  }));
}
