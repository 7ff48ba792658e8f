import type { BuildOptions } from 'esbuild';

export declare const TRACKER_GZIP_BUDGET: number;
export declare const TRACKER_BUILD_OPTIONS: BuildOptions;
