// Filled by the learning-data capability (issue 5).
export {};
