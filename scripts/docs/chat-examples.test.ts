import { readdir, readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { CHAT_EXAMPLES_DIRECTORY, renderChatExamples } from "./write-chat-examples";

describe("docs/examples/chat", () => {
  it("holds exactly what the renderers make of the example events (run npm run docs:chat-examples)", async () => {
    const expected = renderChatExamples();
    expect((await readdir(CHAT_EXAMPLES_DIRECTORY)).sort()).toEqual(expected.map((example) => example.file).sort());
    for (const example of expected)
      expect(await readFile(`${CHAT_EXAMPLES_DIRECTORY}/${example.file}`, "utf8"), example.file).toBe(example.text);
  });
});
