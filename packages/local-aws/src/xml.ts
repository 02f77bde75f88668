// Text in XML documents. Element text needs only &, < and > escaped (errors, STS replies: as those were written);
// S3's listings escape the quotes too, as S3 writes keys.
export function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function xmlEscape(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}
