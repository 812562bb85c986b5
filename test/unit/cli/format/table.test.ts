import { describe, expect, it } from "vitest";
import { renderTable, shortTime } from "../../../../src/cli/format/table.js";

describe("renderTable", () => {
  it("pads every column but the last to its widest cell, two spaces apart", () => {
    expect(
      renderTable(
        ["ID", "NAME", "NOTE"],
        [
          ["1", "fill", "x"],
          ["22", "redeem", ""],
        ],
      ),
    ).toBe(["ID  NAME    NOTE", "1   fill    x", "22  redeem"].join("\n"));
  });

  it("writes ISO times as UTC seconds", () => {
    expect(shortTime("2030-01-01T12:34:56.789Z")).toBe("2030-01-01 12:34:56");
  });
});
