import './country-flag.css';
/**
 * docs/product/screens.md#the-shell-and-the-market-screens "country flag and code". Flag emoji need a colour-emoji font (Windows and many Linux
 * machines have none and show two letters or empty boxes), so flags are the flag-icons SVGs:
 * each one is its own file, fetched only when a card shows it.
 */
const FLAG_URLS: Readonly<Record<string, string>> = (() => {
  const modules = import.meta.glob<string>(
    [
      // npm hoists the package to the workspace root; a portal-only install keeps it here.
      '../../../../node_modules/flag-icons/flags/4x3/*.svg',
      '../../../node_modules/flag-icons/flags/4x3/*.svg',
    ],
    { eager: true, query: '?no-inline', import: 'default', exhaustive: true },
  );
  const byCode: Record<string, string> = {};
  for (const [path, url] of Object.entries(modules)) {
    const code = /\/([a-z]{2})\.svg$/.exec(path)?.[1];
    if (code) byCode[code.toUpperCase()] = url;
  }
  return byCode;
})();

export function CountryFlag({ code }: { code: string | null }) {
  const url = code ? FLAG_URLS[code.toUpperCase()] : undefined;
  if (!url) return null;
  return (
    <img
      className="country-flag"
      src={url}
      width={20}
      height={15}
      alt=""
      aria-hidden="true"
      loading="lazy"
      data-testid="country-flag"
    />
  );
}
