// Progress lines for people, on stderr (stdout carries only the verdict, so `arl check ... > comment.md` works).
export type Progress = (line: string) => void;

export const stderrProgress: Progress = (line) => {
  process.stderr.write(`arl: ${line}\n`);
};

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
