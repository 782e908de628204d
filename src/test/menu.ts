import { fireEvent, screen, within } from '@testing-library/react';

type Name = string | RegExp;

/**
 * Presses a menu's button (given, or found by its name) and answers the menu once it is drawn.
 * The post menu's entries come in a chunk of their own that may still be on its way when the
 * button is pressed, so a test reading them at once would pass or fail by the machine's speed; and
 * a test that an entry is missing means something only once the menu is there.
 */
export async function openMenu(button: Name | HTMLElement): Promise<HTMLElement> {
  fireEvent.click(button instanceof HTMLElement ? button : screen.getByRole('button', { name: button }));
  return screen.findByRole('menu');
}

/** Opens the menu (see openMenu) and presses its entry named `item`. */
export async function chooseFromMenu(button: Name | HTMLElement, item: Name): Promise<void> {
  const menu = await openMenu(button);
  fireEvent.click(within(menu).getByRole('menuitem', { name: item }));
}
