// How records are titled, shared by the pipeline (which writes `pages.title`) and the server (which titles search
// results without reading the pages table).

/** A page's title: its document's title and the page number. */
export const pageTitle = (documentTitle: string, page: number) => `${documentTitle}, page ${page}`;
