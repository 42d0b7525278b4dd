/** Reference prose with `backticks` as code, as the SPEC writes it. */
export function InlineCode({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/(`[^`]+`)/)
        .map((part, index) => (part.startsWith("`") && part.endsWith("`") ? <code key={index}>{part.slice(1, -1)}</code> : part))}
    </>
  );
}
