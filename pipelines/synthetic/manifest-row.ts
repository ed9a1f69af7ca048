// One row of a synthetic corpus's MANIFEST.tsv, as the generator and its worker threads hand it back.
export interface ManifestRow {
  file: string;
  meeting_date: string;
  kind: 'agenda' | 'minutes';
  pages: number;
  bytes: number;
  sha256: string;
  official_url: string;
  archive_url: string;
  synthetic: 'true';
}
