/** "de, FR fi" as the API's list of codes; the API checks them and names a wrong one. */
export const parseLanguages = (text: string) => text.split(/[\s,]+/).filter(Boolean).map((code) => code.toLowerCase());
