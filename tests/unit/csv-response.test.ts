// A CSV download that learns, at its end, that what it read is gone (a sandbox deleted while its export
// streamed): the download is cut off, never finished as a short file that looks whole.
import { describe, expect, it } from "vitest";
import { csvResponse } from "@/lib/platform/csv";

async function* twoBatches(): AsyncGenerator<Array<{ id: number }>, void> {
  yield await Promise.resolve([{ id: 1 }, { id: 2 }]);
  yield [{ id: 3 }];
}

const download = (stillThere?: () => Promise<boolean>) =>
  csvResponse({
    header: ["id"],
    batches: twoBatches(),
    toFields: (row) => [row.id],
    filename: "rows.csv",
    stillThere,
  });

describe("csvResponse's end", () => {
  it("finishes the file when its environment is still there", async () => {
    expect(await (await download(() => Promise.resolve(true))).text()).toBe("id\n1\n2\n3\n");
    expect(await (await download()).text()).toBe("id\n1\n2\n3\n");
  });

  it("cuts the download off when its environment was deleted meanwhile", async () => {
    const reader = (await download(() => Promise.resolve(false))).body!.getReader();
    const read: string[] = [];
    const decoder = new TextDecoder();
    const failure = await (async () => {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) return null;
        read.push(decoder.decode(chunk.value));
      }
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain("deleted while it streamed");
    expect(read.join("")).toBe("id\n1\n2\n3\n");
  });
});
