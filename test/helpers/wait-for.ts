/** Polls `check` every 50 ms until it gives a value (not null or undefined); fails after 30 s naming `what`. */
export async function waitFor<T>(check: () => T | null | undefined | Promise<T | null | undefined>, what = "a condition"): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = await check();
    if (value !== null && value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
