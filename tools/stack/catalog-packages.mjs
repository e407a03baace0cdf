// Debian's translation packages whose message catalogs the catalog memory is built from
// (translate-api `admin catalog:build`). Listed once, for `npm start` (catalog.mjs), `.ci/run` and
// the catalog image (docker/Dockerfile); it imports nothing, so each can read it alone.

/**
 * LibreOffice's interface in every EU language Debian has it for (all but English, the source,
 * and Maltese, which has no LibreOffice package); its .mo files are under
 * /usr/lib/libreoffice/program/resource. Then desktop programs' catalogs in /usr/share/locale,
 * each in the languages its translators cover: GTK 4's widgets, GNOME Settings, Files (nautilus)
 * and the whole Cinnamon desktop; and the data packages (architecture `all`, nothing else pulled
 * in) of programs whose words web and mobile apps share: mail and calendar (Evolution), chat
 * (Pidgin), a browser (Epiphany), an app store (GNOME Software), the shell, a text editor, a
 * document viewer, photos, music, video, a download client, MATE's desktop. docs/operations.md
 * says what each holds; `npm run bench:memory` measures what they answer.
 */
export const CATALOG_PACKAGES = [
  ...['bg', 'cs', 'da', 'de', 'el', 'es', 'et', 'fi', 'fr', 'ga', 'hr', 'hu', 'it', 'lt', 'lv', 'nl', 'pl', 'pt', 'ro', 'sk', 'sl', 'sv'].map((lang) => `libreoffice-l10n-${lang}`),
  'libgtk-4-common',
  'gnome-control-center-data',
  'nautilus-data',
  'cinnamon-l10n',
  'evolution-common',
  'evolution-data-server-common',
  'pidgin-data',
  'epiphany-browser-data',
  'gnome-software-common',
  'gnome-shell-common',
  'gedit-common',
  'evince-common',
  'shotwell-common',
  'rhythmbox-data',
  'totem-common',
  'transmission-common',
  'mate-desktop-common',
];
