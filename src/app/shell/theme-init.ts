import { applyTheme, storedTheme } from '../../components/theme';

// Imported first by the entry, so a theme chosen on this device shows before the app draws.
applyTheme(storedTheme());
