// The module the testing standard's examples test ("./duration.js").
export declare function parseDuration(text: string): number;
