export declare const BUILD_MARK: string;
export declare const BUILD_ICON: string;
export declare function staleBecause(root: string): string | undefined;
