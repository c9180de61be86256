export const ICELANDIC = { strings: {}, options: {}, choices: {} };
