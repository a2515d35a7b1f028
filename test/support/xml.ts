/**
 * A strict little XML well-formedness check for tests: balanced, properly nested tags,
 * quoted unique attributes, known entities, one root element. Enough for XMP packets.
 */
export function assertWellFormedXml(xml: string): void {
  const stack: string[] = [];
  let roots = 0;
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`XML not well-formed at ${i}: ${why}`);
  };
  const checkText = (text: string) => {
    for (const m of text.matchAll(/&([^;\s]*);?/g)) if (!/^(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+)$/.test(m[1]!) || !m[0].endsWith(';')) fail(`bad entity ${m[0]}`);
  };
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    if (lt < 0) {
      checkText(xml.slice(i));
      if (stack.length === 0 && xml.slice(i).trim() !== '') fail('text after root');
      break;
    }
    const text = xml.slice(i, lt);
    checkText(text);
    if (stack.length === 0 && text.trim() !== '') fail('text outside root');
    i = lt;
    if (xml.startsWith('<?', i)) {
      const end = xml.indexOf('?>', i);
      if (end < 0) fail('unterminated processing instruction');
      i = end + 2;
      continue;
    }
    if (xml.startsWith('<!--', i)) {
      const end = xml.indexOf('-->', i);
      if (end < 0) fail('unterminated comment');
      i = end + 3;
      continue;
    }
    const gt = xml.indexOf('>', i);
    if (gt < 0) fail('unterminated tag');
    const tag = xml.slice(i + 1, gt);
    i = gt + 1;
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim();
      if (stack.pop() !== name) fail(`closing ${name} does not match`);
      continue;
    }
    const selfClosing = tag.endsWith('/');
    const body = selfClosing ? tag.slice(0, -1) : tag;
    const m = /^([A-Za-z_][\w.:-]*)([\s\S]*)$/.exec(body);
    if (!m) fail(`bad tag <${tag}>`);
    const seen = new Set<string>();
    let rest = m![2]!.trim();
    while (rest.length > 0) {
      const a = /^([A-Za-z_][\w.:-]*)\s*=\s*("([^"<]*)"|'([^'<]*)')\s*/.exec(rest);
      if (!a) fail(`bad attribute near "${rest.slice(0, 30)}"`);
      if (seen.has(a![1]!)) fail(`duplicate attribute ${a![1]}`);
      seen.add(a![1]!);
      checkText(a![3] ?? a![4]!);
      rest = rest.slice(a![0].length);
    }
    if (stack.length === 0) roots++;
    if (!selfClosing) stack.push(m![1]!);
  }
  if (stack.length > 0) fail(`unclosed ${stack.join(', ')}`);
  if (roots !== 1) fail(`expected one root element, found ${roots}`);
}
