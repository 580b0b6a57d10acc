export declare const BUILD_OUTPUT: string;
export declare function staleBecause(root: string): string | undefined;
