/**
 * How python-requests reads a `Link` header (`requests.utils.parse_header_links`,
 * transcribed): split on `, *<`, then each value on `;` and each parameter on
 * `=`, with no regard for `<…>` or quoted strings. Many harvesting and FAIR
 * tools read Signposting this way, so a header must read the same under it as
 * under RFC 8288.
 */
export function requestsParseLinks(value: string): Record<string, string>[] {
  const strip = (s: string, chars: string): string => {
    let a = 0;
    let b = s.length;
    while (a < b && chars.includes(s[a] as string)) a++;
    while (b > a && chars.includes(s[b - 1] as string)) b--;
    return s.slice(a, b);
  };
  const replaceChars = ` '"`;
  const v = strip(value, replaceChars);
  if (v === '') return [];
  const links: Record<string, string>[] = [];
  for (const val of v.split(/, *</)) {
    const semi = val.indexOf(';');
    const url = semi < 0 ? val : val.slice(0, semi);
    const params = semi < 0 ? '' : val.slice(semi + 1);
    const link: Record<string, string> = { url: strip(url, `<> '"`) };
    for (const param of params.split(';')) {
      const parts = param.split('=');
      if (parts.length !== 2) break;
      link[strip(parts[0] as string, replaceChars)] = strip(parts[1] as string, replaceChars);
    }
    links.push(link);
  }
  return links;
}
