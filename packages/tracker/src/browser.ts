import { installGlobal } from './index';

installGlobal(window as unknown as { CourseLens?: { version: string } });
