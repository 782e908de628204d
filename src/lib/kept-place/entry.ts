import { createContext, useContext } from 'react';

/** The history entry shown, given by KeptPlace (the shell); none outside it. */
export const HistoryEntry = createContext<string | undefined>(undefined);

/** The history entry the screen's lists keep their loaded pages under. */
export const useHistoryEntry = (): string | undefined => useContext(HistoryEntry);
