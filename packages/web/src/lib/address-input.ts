/** An email or username field's typing: as it is, with no capital letter or spelling fix added by a phone. */
export const addressTyping = { autoCapitalize: 'none', spellCheck: false } as const;
