import { describe, expect, it } from "vitest";
import {
  keysetCursorSchema,
  keysetPageLinks,
  PAGE_COUNT_CAP,
  readKeysetPage,
  type KeysetCursor,
} from "@/lib/platform/keyset-pages";

/** A newest-first list of ids 1..size, read as the Logs and deliveries queries read theirs. */
function list(size: number) {
  const ids = Array.from({ length: size }, (_, index) => ({ id: index + 1 }));
  return (cursor: KeysetCursor) =>
    readKeysetPage(
      cursor,
      50,
      ({ before, after, order, limit }) => {
        const inRange = ids.filter(
          ({ id }) => (before === undefined || id < before) && (after === undefined || id > after),
        );
        return Promise.resolve((order === "asc" ? inRange : [...inRange].reverse()).slice(0, limit));
      },
      (cap, newerThan) => {
        const counted = [...ids].reverse().slice(0, cap);
        return Promise.resolve({
          total: counted.length,
          newer: counted.filter(({ id }) => newerThan !== null && id > newerThan).length,
        });
      },
    );
}

const shape = async (pending: ReturnType<ReturnType<typeof list>>) => {
  const page = await pending;
  return {
    ids: [page.rows[0]?.id, page.rows.at(-1)?.id],
    page: page.page,
    of: page.pageCount,
    older: page.olderBefore,
    newer: page.newerAfter,
  };
};

describe("a newest-first list of 123, 50 a page", () => {
  const read = list(123);

  it.each<[string, KeysetCursor, Awaited<ReturnType<typeof shape>>]>([
    ["the newest page", {}, { ids: [123, 74], page: 1, of: 3, older: 74, newer: null }],
    ["Next from it", { before: 74 }, { ids: [73, 24], page: 2, of: 3, older: 24, newer: 73 }],
    ["Next again: the leftover", { before: 24 }, { ids: [23, 1], page: 3, of: 3, older: null, newer: 23 }],
    ["Last, in one step", { last: "1" }, { ids: [23, 1], page: 3, of: 3, older: null, newer: 23 }],
    ["Previous from the last", { after: 23 }, { ids: [73, 24], page: 2, of: 3, older: 24, newer: 73 }],
    ["Previous from the second", { after: 73 }, { ids: [123, 74], page: 1, of: 3, older: 74, newer: null }],
  ])("%s", async (_name, cursor, expected) => {
    expect(await shape(read(cursor))).toEqual(expected);
  });

  it("links only where there is somewhere to go", async () => {
    const href = (cursor: KeysetCursor) => JSON.stringify(cursor);
    expect(keysetPageLinks(await read({}), href)).toEqual({
      next: '{"before":74}',
      last: '{"last":"1"}',
    });
    expect(keysetPageLinks(await read({ last: "1" }), href)).toEqual({
      first: "{}",
      previous: '{"after":23}',
    });
  });
});

describe("edges", () => {
  it("an empty list is page 1 of 1 with nowhere to go", async () => {
    expect(await shape(list(0)({}))).toEqual({
      ids: [undefined, undefined],
      page: 1,
      of: 1,
      older: null,
      newer: null,
    });
  });

  it("past the count's cap the page count reads 200+ and Last still reaches the oldest rows", async () => {
    const read = list(PAGE_COUNT_CAP + 75);
    const first = await read({});
    expect([first.page, first.pageCount, first.pageCountIsCapped]).toEqual([1, PAGE_COUNT_CAP / 50, true]);
    const last = await read({ last: "1" });
    expect([last.rows[0]!.id, last.rows.at(-1)!.id, last.page, last.olderBefore]).toEqual([
      50,
      1,
      null,
      null,
    ]);
  });

  it("a crafted cursor is ignored, not an error", () => {
    expect(keysetCursorSchema.parse({ before: "abc", after: "-1", last: "yes" })).toEqual({});
  });
});
