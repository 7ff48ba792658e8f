// The course tracker: the small script courses load (served at /tracker.js)
// to report what learners do. Its behaviour (queue, batches, retries,
// Storyline helpers) arrives with the ingestion issue; for now it exposes its
// version so a course can check that the script loaded.
export const TRACKER_VERSION = '0.1.0';

export type CourseLensGlobal = {
  version: string;
};

export function installGlobal(target: { CourseLens?: CourseLensGlobal }): CourseLensGlobal {
  const api: CourseLensGlobal = { version: TRACKER_VERSION };
  target.CourseLens = api;
  return api;
}
