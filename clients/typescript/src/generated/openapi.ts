/**
 * Generated from openapi.json by openapi-typescript: do not edit.
 * Regenerate with `npm run client:types` at the repository root after openapi.json changes
 * (a test fails while this file is stale).
 */

export interface paths {
    "/v1/catalog/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List categories
         * @description All categories of the stores the key may read (or of `storeId`), not paginated. Archived categories are never returned; inactive ones only with `activeOnly=false`.
         *
         *     **Required scope:** `catalog.categories.read`
         */
        get: operations["listCategories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/catalog/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List products
         * @description Products of every store the key may read (or of `storeId`), ordered by id in byte order, with exact `total` and `totalPages`. Inactive products are hidden unless `activeOnly=false`.
         *
         *     **Required scope:** `catalog.products.read`
         */
        get: operations["listProducts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/catalog/products/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one product
         * @description One product by id, active or not.
         *
         *     **Required scope:** `catalog.products.read`
         */
        get: operations["getProduct"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/catalog/promotions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List customer-facing promotions
         * @description Customer-facing promotions (PERCENT_OFF, AMOUNT_OFF, FIXED_PRICE, MULTI_BUY, BUY_X_GET_Y, BUNDLE, SPEND_AND_SAVE; never coupons, staff or manual discounts, system presets, DRAFT or ARCHIVED), ordered by id, not paginated. Each carries plain-English descriptions of who qualifies and of the discount; the internal rules are never returned.
         *
         *     **Required scope:** `catalog.promotions.read`
         */
        get: operations["listPromotions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inventory/stock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List stock levels
         * @description One row per product of the stores the key may read (or of `storeId`), ordered by product id, with exact quantities and a derived availability. A product without a stock record has trackStock false, zero quantities and availability not_tracked. Inactive products are hidden unless `activeOnly=false`.
         *
         *     **Required scope:** `inventory.stock.read`
         */
        get: operations["listStock"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description not_tracked when trackStock is false; else out_of_stock when quantity <= 0, low_stock when 0 < quantity <= reorderLevel, in_stock above (exact decimal comparison).
         * @enum {string}
         */
        Availability: "not_tracked" | "out_of_stock" | "low_stock" | "in_stock";
        Category: {
            /** @example cat_camden_sd */
            id: string;
            /** @example sto_camden */
            storeId: string;
            /** @example cat_camden_dr */
            parentCategoryId: string | null;
            /** @example Soft Drinks */
            name: string;
            /** @example SD */
            code: string | null;
            /** @example null */
            description: string | null;
            /** @example 10 */
            sortOrder: number;
            isActive: boolean;
            /**
             * Format: date-time
             * @example 2026-10-02T09:30:00.000Z
             */
            updatedAt: string;
        };
        ErrorBody: {
            /** @description Match on this, not on message. */
            code: components["schemas"]["ErrorCode"];
            /** @description Human-readable, not localized; the text may change. */
            message: string;
            /** @description Shape depends on code: validation_failed → { errors: [{ in: "query" | "path", name, message }] } with one entry per failing parameter; scope_denied → { requiredScopes: [scope] }; rate_limited → { retryAfterSeconds: n }; otherwise {}. */
            details: {
                [key: string]: unknown;
            };
            /**
             * @description Same value as the X-Request-Id response header.
             * @example req_8GmKz2QpLr5TnW1xYb7cDf3h
             */
            requestId: string;
        };
        /**
         * @description Match on this, not on message.
         * @enum {string}
         */
        ErrorCode: "validation_failed" | "unauthorized" | "scope_denied" | "not_found" | "payload_too_large" | "rate_limited" | "internal_error";
        ErrorEnvelope: {
            error: components["schemas"]["ErrorBody"];
        };
        Product: {
            /** @example prd_camden_001 */
            id: string;
            /** @example sto_camden */
            storeId: string;
            /** @example cat_camden_sd */
            categoryId: string | null;
            /** @example Cola 330ml can */
            name: string;
            /** @example SD-100 */
            sku: string;
            /** @example 5010000000000 */
            barcode: string | null;
            /** @example Fizz */
            brand: string | null;
            /** @example 330ml */
            size: string | null;
            /** @example item */
            unitType: components["schemas"]["UnitType"];
            /**
             * @description Price including VAT.
             * @example 1.20
             */
            sellingPriceGross: string;
            /**
             * @description Price excluding VAT.
             * @example 1.00
             */
            sellingPriceNet: string;
            /** @example STANDARD */
            taxCategory: components["schemas"]["TaxCategory"];
            vatRate: {
                /** @example vat_cs_std */
                id: string;
                /**
                 * @description Short VAT rate code.
                 * @example S
                 */
                code: string;
                /** @example Standard rate */
                name: string;
                /**
                 * @description Percentage as a decimal string with 2 decimals.
                 * @example 20.00
                 */
                percentage: string;
            } | null;
            isActive: boolean;
            /** @description Sold at a scale-entered or variable price (for example by weight). */
            variablePrice: boolean;
            /** @description The four restriction flags are independent. */
            ageRestricted: boolean;
            alcoholRestricted: boolean;
            tobaccoRestricted: boolean;
            vapeRestricted: boolean;
            /**
             * Format: date-time
             * @example 2026-10-02T09:30:00.000Z
             */
            updatedAt: string;
        };
        ProductPage: {
            rows: components["schemas"]["Product"][];
            /**
             * @description The page returned, from 1.
             * @example 1
             */
            page: number;
            /**
             * @description Rows per page.
             * @example 50
             */
            pageSize: number;
            /**
             * @description Rows matching the filters, on all pages.
             * @example 152
             */
            total: number;
            /**
             * @description ceil(total / pageSize), at least 1.
             * @example 4
             */
            totalPages: number;
        };
        Promotion: {
            /** @example pro_camden_meal */
            id: string;
            /** @example sto_camden */
            storeId: string;
            /**
             * @description Display name.
             * @example 3 soft drinks for 3.00
             */
            name: string;
            /** @example MULTI_BUY */
            type: components["schemas"]["PromotionType"];
            schedule: components["schemas"]["PromotionSchedule"];
            lifecycle: components["schemas"]["PromotionLifecycle"];
            /** @description status is ACTIVE and the current time is inside [startsAt, endsAt]; independent of the query filters. */
            isActive: boolean;
            /**
             * @description Who or what qualifies, in plain English.
             * @example Buy 3 or more from Soft Drinks
             */
            eligibilityDescription: string;
            /**
             * @description The discount, in plain English; amounts carry the currency code.
             * @example The qualifying items together for GBP 3.00
             */
            discountDescription: string;
            /**
             * Format: date-time
             * @example 2026-10-02T09:30:00.000Z
             */
            updatedAt: string;
        };
        PromotionLifecycle: {
            /**
             * @description PAUSED is returned only with activeOnly=false.
             * @example ACTIVE
             */
            status: components["schemas"]["PromotionStatus"];
        };
        PromotionSchedule: {
            /**
             * Format: date-time
             * @description Start of the window, inclusive; null: open.
             * @example 2026-10-02T09:30:00.000Z
             */
            startsAt: string | null;
            /**
             * Format: date-time
             * @description End of the window, inclusive; null: open.
             * @example null
             */
            endsAt: string | null;
        };
        /**
         * @description PAUSED is returned only with activeOnly=false.
         * @enum {string}
         */
        PromotionStatus: "ACTIVE" | "PAUSED";
        /** @enum {string} */
        PromotionType: "PERCENT_OFF" | "AMOUNT_OFF" | "FIXED_PRICE" | "MULTI_BUY" | "BUY_X_GET_Y" | "BUNDLE" | "SPEND_AND_SAVE";
        StockPage: {
            rows: components["schemas"]["StockRow"][];
            /**
             * @description The page returned, from 1.
             * @example 1
             */
            page: number;
            /**
             * @description Rows per page.
             * @example 50
             */
            pageSize: number;
            /**
             * @description Rows matching the filters, on all pages.
             * @example 152
             */
            total: number;
            /**
             * @description ceil(total / pageSize), at least 1.
             * @example 4
             */
            totalPages: number;
        };
        StockRow: {
            /** @example prd_camden_001 */
            productId: string;
            /** @example sto_camden */
            storeId: string;
            /** @example SD-100 */
            sku: string;
            /** @example 5010000000000 */
            barcode: string | null;
            /** @example Cola 330ml can */
            productName: string;
            /** @description Whether stock is tracked at all; when false, availability is not_tracked. */
            trackStock: boolean;
            /**
             * @description Current quantity, exact; may be negative.
             * @example 12.000
             */
            quantity: string;
            /**
             * @description Informational: mirrored from reorderLevel on every save; not used to compute availability.
             * @example 12.000
             */
            lowStockThreshold: string;
            /**
             * @description The threshold used for low_stock.
             * @example 12.000
             */
            reorderLevel: string;
            /**
             * @description not_tracked when trackStock is false; else out_of_stock when quantity <= 0, low_stock when 0 < quantity <= reorderLevel, in_stock above (exact decimal comparison).
             * @example in_stock
             */
            availability: components["schemas"]["Availability"];
            /**
             * Format: date-time
             * @description The later of the product's and its stock level's update times.
             * @example 2026-10-02T09:30:00.000Z
             */
            updatedAt: string;
        };
        /** @enum {string} */
        TaxCategory: "STANDARD" | "ZERO_RATED" | "REDUCED" | "EXEMPT" | "OUT_OF_SCOPE" | "UNCLASSIFIED";
        /** @enum {string} */
        UnitType: "item" | "kg" | "g" | "litre" | "ml";
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listCategories: {
        parameters: {
            query?: {
                /** @description Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found. */
                storeId?: string;
                /** @description Only the direct children of this category. Exact, case-sensitive. */
                parentCategoryId?: string;
                /** @description true: only active categories; false: inactive ones too. Archived categories are never returned. */
                activeOnly?: boolean;
                /** @description sortOrder (default): by sortOrder, then lower-case name, then id. name: by lower-case name, then id. Names compare in byte order. */
                sortBy?: "sortOrder" | "name";
            };
            header?: {
                /** @description Optional id of this request, echoed in the response. Must match ^[A-Za-z0-9_.:-]{1,80}$; otherwise (or when absent) the service generates one starting with req_. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The categories, in the order of sortBy. */
            200: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Category"][];
                };
            };
            /** @description validation_failed: a parameter is invalid, unknown, repeated or empty. details.errors lists every failing parameter. */
            400: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "validation_failed",
                     *         "message": "One or more parameters are invalid.",
                     *         "details": {
                     *           "errors": [
                     *             {
                     *               "in": "query",
                     *               "name": "pageSize",
                     *               "message": "must be a whole number from 1 to 100"
                     *             },
                     *             {
                     *               "in": "query",
                     *               "name": "storeID",
                     *               "message": "is not a parameter of this operation"
                     *             }
                     *           ]
                     *         },
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description unauthorized: the key is missing, malformed, unknown, expired or revoked, of the other environment, or its client is disabled or revoked. One message for every cause. */
            401: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    /** @description Always Bearer. */
                    "WWW-Authenticate"?: "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid API key is required in the Authorization header (Bearer).",
                     *         "details": {},
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description scope_denied: the key is valid but its client lacks the scope of this operation (details.requiredScopes). */
            403: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_denied",
                     *         "message": "The API key does not have the scope this operation requires.",
                     *         "details": {
                     *           "requiredScopes": [
                     *             "catalog.products.read"
                     *           ]
                     *         },
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description not_found: storeId names a store that does not exist, belongs to another tenant or is outside the key's stores (one answer for all three). */
            404: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "The requested resource was not found.",
                     *         "details": {},
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description payload_too_large: the request carried a body larger than the limit (operations take no body). */
            413: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is larger than this service accepts.",
                     *         "details": {},
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description rate_limited: the budget is spent. Wait Retry-After seconds (also in details.retryAfterSeconds), then retry with backoff. */
            429: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    /** @description Whole seconds to wait, at least 1. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "Too many requests. Retry after the number of seconds in Retry-After.",
                     *         "details": {
                     *           "retryAfterSeconds": 17
                     *         },
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description internal_error: an unexpected error; the body says nothing more. Report the requestId. */
            500: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "internal_error",
                     *         "message": "An internal error occurred. Report the requestId if the problem persists.",
                     *         "details": {},
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listProducts: {
        parameters: {
            query?: {
                /** @description Page number, from 1. A page past the last one is a 200 with no rows and the true total. To walk a whole list, follow the `Link` header's `rel="next"` cursors instead: their cost does not grow with the depth, and they miss no row. */
                page?: number;
                /** @description Rows per page, 1 to 100. */
                pageSize?: number;
                /** @description Where a walk continues: take it from the `Link` header's `rel="next"` URL, which repeats every other parameter of the request (a cursor is refused with other parameters, with `page`, by another API client, or altered). Pages by cursor are read after the last id of the previous page, at the cost of the first page whatever the depth; the body's `page` is the page number the cursor stands for. */
                cursor?: string;
                /** @description Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found. */
                storeId?: string;
                /** @description Only products whose own category is this one (not its subcategories'). Exact, case-sensitive. */
                categoryId?: string;
                /** @description Free-text search: split on white space into at most 10 terms; a product matches when every term is a case-insensitive substring of its name, sku, barcode or brand. %, _ and \ are literal characters. */
                q?: string;
                /** @description Exact, case-sensitive barcode. */
                barcode?: string;
                /** @description Exact, case-sensitive SKU. */
                sku?: string;
                /** @description Only products with updatedAt at or after this instant (RFC 3339 with Z or an offset). To keep a copy in sync, use changedSince instead: timestamps written by other systems or by transactions that commit late can fall behind the largest updatedAt already seen. */
                updatedSince?: string;
                /** @description true: only active products; false: inactive ones too. Exactly true or false. */
                activeOnly?: boolean;
                /** @description A sync position (the `Sync-Position` header of an earlier walk): only products whose public data changed since, inactive ones included. Needs activeOnly=false; combines only with storeId, pageSize and cursor. Follow the `Link` next cursors to the end and store the new Sync-Position. Deletions are not signalled. */
                changedSince?: string;
            };
            header?: {
                /** @description Optional id of this request, echoed in the response. Must match ^[A-Za-z0-9_.:-]{1,80}$; otherwise (or when absent) the service generates one starting with req_. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of products. */
            200: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    /** @description RFC 8288 links, relative to this server: `rel="next"` (while a next page exists) and `rel="first"`. The next URL repeats the request's parameters and adds a `cursor`; following it walks the whole list in id order at the cost of the first page, whatever the depth. */
                    Link?: string;
                    /** @description On a walk that can keep a copy in sync (activeOnly=false and no filter but storeId, begun without `page`): the position to store and send back as `changedSince` in the next round. The same on every page of one walk; taken when the walk began. Absent on other requests. */
                    "Sync-Position"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductPage"];
                };
            };
            /** @description validation_failed: a parameter is invalid, unknown, repeated or empty. details.errors lists every failing parameter. */
            400: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "validation_failed",
                     *         "message": "One or more parameters are invalid.",
                     *         "details": {
                     *           "errors": [
                     *             {
                     *               "in": "query",
                     *               "name": "pageSize",
                     *               "message": "must be a whole number from 1 to 100"
                     *             },
                     *             {
                     *               "in": "query",
                     *               "name": "storeID",
                     *               "message": "is not a parameter of this operation"
                     *             }
                     *           ]
                     *         },
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description unauthorized: the key is missing, malformed, unknown, expired or revoked, of the other environment, or its client is disabled or revoked. One message for every cause. */
            401: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    /** @description Always Bearer. */
                    "WWW-Authenticate"?: "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid API key is required in the Authorization header (Bearer).",
                     *         "details": {},
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description scope_denied: the key is valid but its client lacks the scope of this operation (details.requiredScopes). */
            403: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_denied",
                     *         "message": "The API key does not have the scope this operation requires.",
                     *         "details": {
                     *           "requiredScopes": [
                     *             "catalog.products.read"
                     *           ]
                     *         },
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description not_found: storeId names a store that does not exist, belongs to another tenant or is outside the key's stores (one answer for all three). */
            404: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "The requested resource was not found.",
                     *         "details": {},
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description payload_too_large: the request carried a body larger than the limit (operations take no body). */
            413: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is larger than this service accepts.",
                     *         "details": {},
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description rate_limited: the budget is spent. Wait Retry-After seconds (also in details.retryAfterSeconds), then retry with backoff. */
            429: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    /** @description Whole seconds to wait, at least 1. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "Too many requests. Retry after the number of seconds in Retry-After.",
                     *         "details": {
                     *           "retryAfterSeconds": 17
                     *         },
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description internal_error: an unexpected error; the body says nothing more. Report the requestId. */
            500: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "internal_error",
                     *         "message": "An internal error occurred. Report the requestId if the problem persists.",
                     *         "details": {},
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getProduct: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional id of this request, echoed in the response. Must match ^[A-Za-z0-9_.:-]{1,80}$; otherwise (or when absent) the service generates one starting with req_. */
                "X-Request-Id"?: string;
            };
            path: {
                /** @description Product id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The product. */
            200: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description validation_failed: a parameter is invalid, unknown, repeated or empty. details.errors lists every failing parameter. */
            400: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "validation_failed",
                     *         "message": "One or more parameters are invalid.",
                     *         "details": {
                     *           "errors": [
                     *             {
                     *               "in": "query",
                     *               "name": "pageSize",
                     *               "message": "must be a whole number from 1 to 100"
                     *             },
                     *             {
                     *               "in": "query",
                     *               "name": "storeID",
                     *               "message": "is not a parameter of this operation"
                     *             }
                     *           ]
                     *         },
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description unauthorized: the key is missing, malformed, unknown, expired or revoked, of the other environment, or its client is disabled or revoked. One message for every cause. */
            401: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    /** @description Always Bearer. */
                    "WWW-Authenticate"?: "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid API key is required in the Authorization header (Bearer).",
                     *         "details": {},
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description scope_denied: the key is valid but its client lacks the scope of this operation (details.requiredScopes). */
            403: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_denied",
                     *         "message": "The API key does not have the scope this operation requires.",
                     *         "details": {
                     *           "requiredScopes": [
                     *             "catalog.products.read"
                     *           ]
                     *         },
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description not_found: no such product, or it belongs to another tenant or to a store outside the key's stores (one answer for all). */
            404: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "The requested resource was not found.",
                     *         "details": {},
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description payload_too_large: the request carried a body larger than the limit (operations take no body). */
            413: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is larger than this service accepts.",
                     *         "details": {},
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description rate_limited: the budget is spent. Wait Retry-After seconds (also in details.retryAfterSeconds), then retry with backoff. */
            429: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    /** @description Whole seconds to wait, at least 1. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "Too many requests. Retry after the number of seconds in Retry-After.",
                     *         "details": {
                     *           "retryAfterSeconds": 17
                     *         },
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description internal_error: an unexpected error; the body says nothing more. Report the requestId. */
            500: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "internal_error",
                     *         "message": "An internal error occurred. Report the requestId if the problem persists.",
                     *         "details": {},
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listPromotions: {
        parameters: {
            query?: {
                /** @description Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found. */
                storeId?: string;
                /** @description Only ACTIVE promotions whose window contains this instant (startsAt <= activeAt <= endsAt; a null bound is open). Overrides activeOnly. */
                activeAt?: string;
                /** @description Exact promotion type. Types outside the customer-facing list (PERCENT_OFF, AMOUNT_OFF, FIXED_PRICE, MULTI_BUY, BUY_X_GET_Y, BUNDLE, SPEND_AND_SAVE) give an empty array. */
                type?: string;
                /** @description true: only ACTIVE promotions whose window contains the current time. false: ACTIVE and PAUSED promotions, whatever their window. */
                activeOnly?: boolean;
            };
            header?: {
                /** @description Optional id of this request, echoed in the response. Must match ^[A-Za-z0-9_.:-]{1,80}$; otherwise (or when absent) the service generates one starting with req_. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The promotions. */
            200: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Promotion"][];
                };
            };
            /** @description validation_failed: a parameter is invalid, unknown, repeated or empty. details.errors lists every failing parameter. */
            400: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "validation_failed",
                     *         "message": "One or more parameters are invalid.",
                     *         "details": {
                     *           "errors": [
                     *             {
                     *               "in": "query",
                     *               "name": "pageSize",
                     *               "message": "must be a whole number from 1 to 100"
                     *             },
                     *             {
                     *               "in": "query",
                     *               "name": "storeID",
                     *               "message": "is not a parameter of this operation"
                     *             }
                     *           ]
                     *         },
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description unauthorized: the key is missing, malformed, unknown, expired or revoked, of the other environment, or its client is disabled or revoked. One message for every cause. */
            401: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    /** @description Always Bearer. */
                    "WWW-Authenticate"?: "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid API key is required in the Authorization header (Bearer).",
                     *         "details": {},
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description scope_denied: the key is valid but its client lacks the scope of this operation (details.requiredScopes). */
            403: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_denied",
                     *         "message": "The API key does not have the scope this operation requires.",
                     *         "details": {
                     *           "requiredScopes": [
                     *             "catalog.products.read"
                     *           ]
                     *         },
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description not_found: storeId names a store that does not exist, belongs to another tenant or is outside the key's stores (one answer for all three). */
            404: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "The requested resource was not found.",
                     *         "details": {},
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description payload_too_large: the request carried a body larger than the limit (operations take no body). */
            413: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is larger than this service accepts.",
                     *         "details": {},
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description rate_limited: the budget is spent. Wait Retry-After seconds (also in details.retryAfterSeconds), then retry with backoff. */
            429: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    /** @description Whole seconds to wait, at least 1. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "Too many requests. Retry after the number of seconds in Retry-After.",
                     *         "details": {
                     *           "retryAfterSeconds": 17
                     *         },
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description internal_error: an unexpected error; the body says nothing more. Report the requestId. */
            500: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "internal_error",
                     *         "message": "An internal error occurred. Report the requestId if the problem persists.",
                     *         "details": {},
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listStock: {
        parameters: {
            query?: {
                /** @description Page number, from 1. A page past the last one is a 200 with no rows and the true total. To walk a whole list, follow the `Link` header's `rel="next"` cursors instead: their cost does not grow with the depth, and they miss no row. */
                page?: number;
                /** @description Rows per page, 1 to 100. */
                pageSize?: number;
                /** @description Where a walk continues: take it from the `Link` header's `rel="next"` URL, which repeats every other parameter of the request (a cursor is refused with other parameters, with `page`, by another API client, or altered). Pages by cursor are read after the last id of the previous page, at the cost of the first page whatever the depth; the body's `page` is the page number the cursor stands for. */
                cursor?: string;
                /** @description Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found. */
                storeId?: string;
                /** @description Only this product. */
                productId?: string;
                /** @description Exact, case-sensitive SKU. */
                sku?: string;
                /** @description Exact, case-sensitive barcode. */
                barcode?: string;
                /** @description Only products whose own category is this one (not its subcategories'). */
                categoryId?: string;
                /** @description Only rows with updatedAt at or after this instant (a row's updatedAt is the later of the product's and its stock level's update times). To keep a copy in sync, use changedSince instead: timestamps written by other systems or by transactions that commit late can fall behind the largest updatedAt already seen. */
                updatedSince?: string;
                /** @description true: only rows whose availability is low_stock. false filters nothing. */
                lowStockOnly?: boolean;
                /** @description true: only active products; false: inactive ones too. */
                activeOnly?: boolean;
                /** @description A sync position (the `Sync-Position` header of an earlier walk): only rows whose product or stock level changed since, inactive products included. Needs activeOnly=false; combines only with storeId, pageSize and cursor. Follow the `Link` next cursors to the end and store the new Sync-Position. Deletions are not signalled. */
                changedSince?: string;
            };
            header?: {
                /** @description Optional id of this request, echoed in the response. Must match ^[A-Za-z0-9_.:-]{1,80}$; otherwise (or when absent) the service generates one starting with req_. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of stock rows. */
            200: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    /** @description RFC 8288 links, relative to this server: `rel="next"` (while a next page exists) and `rel="first"`. The next URL repeats the request's parameters and adds a `cursor`; following it walks the whole list in id order at the cost of the first page, whatever the depth. */
                    Link?: string;
                    /** @description On a walk that can keep a copy in sync (activeOnly=false and no filter but storeId, begun without `page`): the position to store and send back as `changedSince` in the next round. The same on every page of one walk; taken when the walk began. Absent on other requests. */
                    "Sync-Position"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StockPage"];
                };
            };
            /** @description validation_failed: a parameter is invalid, unknown, repeated or empty. details.errors lists every failing parameter. */
            400: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "validation_failed",
                     *         "message": "One or more parameters are invalid.",
                     *         "details": {
                     *           "errors": [
                     *             {
                     *               "in": "query",
                     *               "name": "pageSize",
                     *               "message": "must be a whole number from 1 to 100"
                     *             },
                     *             {
                     *               "in": "query",
                     *               "name": "storeID",
                     *               "message": "is not a parameter of this operation"
                     *             }
                     *           ]
                     *         },
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description unauthorized: the key is missing, malformed, unknown, expired or revoked, of the other environment, or its client is disabled or revoked. One message for every cause. */
            401: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    /** @description Always Bearer. */
                    "WWW-Authenticate"?: "Bearer";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid API key is required in the Authorization header (Bearer).",
                     *         "details": {},
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description scope_denied: the key is valid but its client lacks the scope of this operation (details.requiredScopes). */
            403: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "scope_denied",
                     *         "message": "The API key does not have the scope this operation requires.",
                     *         "details": {
                     *           "requiredScopes": [
                     *             "catalog.products.read"
                     *           ]
                     *         },
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description not_found: storeId names a store that does not exist, belongs to another tenant or is outside the key's stores (one answer for all three). */
            404: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "The requested resource was not found.",
                     *         "details": {},
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description payload_too_large: the request carried a body larger than the limit (operations take no body). */
            413: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is larger than this service accepts.",
                     *         "details": {},
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description rate_limited: the budget is spent. Wait Retry-After seconds (also in details.retryAfterSeconds), then retry with backoff. */
            429: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    /** @description Whole seconds to wait, at least 1. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "Too many requests. Retry after the number of seconds in Retry-After.",
                     *         "details": {
                     *           "retryAfterSeconds": 17
                     *         },
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description internal_error: an unexpected error; the body says nothing more. Report the requestId. */
            500: {
                headers: {
                    /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
                    "RateLimit-Policy"?: string;
                    /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
                    RateLimit?: string;
                    /** @description Always no-store. */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "internal_error",
                     *         "message": "An internal error occurred. Report the requestId if the problem persists.",
                     *         "details": {},
                     *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
}
