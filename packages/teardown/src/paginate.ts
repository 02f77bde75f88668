// Every page of a paginated AWS listing, in order: `fetch` gets the previous page's token (undefined first) and
// returns the page's items and the next token (undefined on the last page).
export async function paginate<T>(
  fetch: (token: string | undefined) => Promise<{ items: T[]; next: string | undefined }>,
): Promise<T[]> {
  const all: T[] = [];
  let token: string | undefined;
  do {
    const page = await fetch(token);
    all.push(...page.items);
    token = page.next;
  } while (token);
  return all;
}
