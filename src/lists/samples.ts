/**
 * Sample values that appear in several places of the document (a parameter and the header it comes
 * from). Both are opaque: a cursor is signed by the database that made it (this one was made for
 * the demo data), and a sync position only means something to
 * the API client, list and store it was handed out for.
 */
export const SAMPLE_CURSOR =
  'WzEsImxsbDVCeXBNQk5tRFMzRmphdFdUUnUiLCJwcmRfaXNsaW5ndG9uXzAyNCIsMiwiNzU4Il0.PSyEDw6L-E9iaPQvUgcMJw';
export const SAMPLE_SYNC_POSITION = 'sp_UrnPbGNrfp8GOwv1o6M8LNLpGhEeVhADr4FsaJRSdufiQssi9N_lLQukyKQ';
