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
         *
         *     **404 not_found:** storeId names a store that does not exist, belongs to another tenant or is outside the key's stores (one answer for all three).
         */
        get: operations["listCategories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * List categories: headers only
         * @description The status and headers of GET /v1/catalog/categories, without a body.
         */
        head: operations["listCategoriesHead"];
        patch?: never;
        trace?: never;
    };
    "/v1/catalog/product-removals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List products that left your view
         * @description The removals feed of the product list: every product that left the view of your key (or of `storeId`) since `changedSince` (deleted, moved to a store outside the view, or its store left the view) and is not in it now, once each, ordered by id. A sync round is the changes walk (`/v1/catalog/products?activeOnly=false&changedSince=…`), then this walk from the same position: delete the listed ids from your copy, then keep the changes walk's new `Sync-Position` (docs/sync.md).
         *
         *     **Required scope:** `catalog.products.read`
         *
         *     **404 not_found:** storeId names a store that does not exist, belongs to another tenant or is outside the key's stores (one answer for all three).
         */
        get: operations["listProductRemovals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * List products that left your view: headers only
         * @description The status and headers of GET /v1/catalog/product-removals, without a body.
         */
        head: operations["listProductRemovalsHead"];
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
         *
         *     **404 not_found:** storeId names a store that does not exist, belongs to another tenant or is outside the key's stores (one answer for all three).
         */
        get: operations["listProducts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * List products: headers only
         * @description The status and headers of GET /v1/catalog/products, without a body.
         */
        head: operations["listProductsHead"];
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
         *
         *     **404 not_found:** no such product, or it belongs to another tenant or to a store outside the key's stores (one answer for all).
         */
        get: operations["getProduct"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * Get one product: headers only
         * @description The status and headers of GET /v1/catalog/products/{id}, without a body.
         */
        head: operations["getProductHead"];
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
         *
         *     **404 not_found:** storeId names a store that does not exist, belongs to another tenant or is outside the key's stores (one answer for all three).
         */
        get: operations["listPromotions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * List customer-facing promotions: headers only
         * @description The status and headers of GET /v1/catalog/promotions, without a body.
         */
        head: operations["listPromotionsHead"];
        patch?: never;
        trace?: never;
    };
    "/v1/catalog/stores": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the stores the key may read
         * @description The stores the key may read (every store of its tenant, or the key's stores), ordered by id in byte order: the ids the other lists give as `storeId` and take as their `storeId` filter.
         *
         *     **Required scope:** any one of `catalog.products.read`, `catalog.categories.read`, `catalog.promotions.read`, `inventory.stock.read`
         *
         *     **404 not_found:** storeId names a store that does not exist, belongs to another tenant or is outside the key's stores (one answer for all three).
         */
        get: operations["listStores"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * List the stores the key may read: headers only
         * @description The status and headers of GET /v1/catalog/stores, without a body.
         */
        head: operations["listStoresHead"];
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
         *
         *     **404 not_found:** storeId names a store that does not exist, belongs to another tenant or is outside the key's stores (one answer for all three).
         */
        get: operations["listStock"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * List stock levels: headers only
         * @description The status and headers of GET /v1/inventory/stock, without a body.
         */
        head: operations["listStockHead"];
        patch?: never;
        trace?: never;
    };
    "/v1/inventory/stock-removals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List stock rows that left your view
         * @description The removals feed of the stock list: the stock row of every product that left the view of your key (or of `storeId`) since `changedSince` and is not in it now, once each, ordered by product id. A sync round is the changes walk (`/v1/inventory/stock?activeOnly=false&changedSince=…`), then this walk from the same position: delete the listed rows from your copy, then keep the changes walk's new `Sync-Position` (docs/sync.md).
         *
         *     **Required scope:** `inventory.stock.read`
         *
         *     **404 not_found:** storeId names a store that does not exist, belongs to another tenant or is outside the key's stores (one answer for all three).
         */
        get: operations["listStockRemovals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * List stock rows that left your view: headers only
         * @description The status and headers of GET /v1/inventory/stock-removals, without a body.
         */
        head: operations["listStockRemovalsHead"];
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
        /**
         * @example {
         *       "id": "cat_camden_sd",
         *       "storeId": "sto_camden",
         *       "parentCategoryId": "cat_camden_dr",
         *       "name": "Soft Drinks",
         *       "code": "SD",
         *       "description": null,
         *       "sortOrder": 10,
         *       "isActive": true,
         *       "updatedAt": "2026-10-02T08:00:00.000Z"
         *     }
         */
        Category: {
            id: string;
            storeId: string;
            parentCategoryId: string | null;
            name: string;
            code: string | null;
            description: string | null;
            /** Format: int32 */
            sortOrder: number;
            isActive: boolean;
            /** Format: date-time */
            updatedAt: string;
        };
        /** @description The error; `details` has the shape of its `code`. */
        ErrorBody: components["schemas"]["ValidationFailedError"] | components["schemas"]["PlainError"] | components["schemas"]["ScopeDeniedError"] | components["schemas"]["RateLimitedError"] | components["schemas"]["ServiceUnavailableError"];
        /** @description Every non-200 response. */
        ErrorEnvelope: {
            error: components["schemas"]["ErrorBody"];
        };
        /** @description Always `{}`. */
        NoDetails: Record<string, never>;
        ParameterError: {
            /** @enum {string} */
            in: "query" | "path";
            /** @description The parameter, as sent (an unknown one too). */
            name: string;
            /** @description What is wrong with it; the text may change. */
            message: string;
        };
        /** @description 401 unauthorized, 404 not_found, 413 payload_too_large and 500 internal_error: nothing more to say. */
        PlainError: {
            /**
             * @description Match on this, not on message. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            code: "unauthorized" | "not_found" | "payload_too_large" | "internal_error";
            /** @description Human-readable, not localized; the text may change. */
            message: string;
            details: components["schemas"]["NoDetails"];
            /** @description Same value as the X-Request-Id response header. */
            requestId: string;
        };
        /**
         * @example {
         *       "id": "prd_camden_001",
         *       "storeId": "sto_camden",
         *       "categoryId": "cat_camden_sd",
         *       "name": "Cola 330ml can",
         *       "sku": "SD-100",
         *       "barcode": "5010000000000",
         *       "brand": "Fizz",
         *       "size": "330ml",
         *       "unitType": "item",
         *       "sellingPriceGross": "1.20",
         *       "sellingPriceNet": "1.00",
         *       "taxCategory": "STANDARD",
         *       "vatRate": {
         *         "id": "vat_cs_std",
         *         "code": "S",
         *         "name": "Standard rate",
         *         "percentage": "20.00"
         *       },
         *       "isActive": true,
         *       "variablePrice": false,
         *       "ageRestricted": false,
         *       "alcoholRestricted": false,
         *       "tobaccoRestricted": false,
         *       "vapeRestricted": false,
         *       "updatedAt": "2026-10-03T09:00:00.000Z"
         *     }
         */
        Product: {
            id: string;
            storeId: string;
            categoryId: string | null;
            name: string;
            sku: string;
            barcode: string | null;
            brand: string | null;
            size: string | null;
            unitType: components["schemas"]["UnitType"];
            /** @description Price including VAT. */
            sellingPriceGross: string;
            /** @description Price excluding VAT. */
            sellingPriceNet: string;
            taxCategory: components["schemas"]["TaxCategory"];
            vatRate: components["schemas"]["VatRate"];
            isActive: boolean;
            /** @description Sold at a scale-entered or variable price (for example by weight). */
            variablePrice: boolean;
            /** @description The four restriction flags are independent. */
            ageRestricted: boolean;
            alcoholRestricted: boolean;
            tobaccoRestricted: boolean;
            vapeRestricted: boolean;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "rows": [
         *         {
         *           "id": "prd_camden_001",
         *           "storeId": "sto_camden",
         *           "categoryId": "cat_camden_sd",
         *           "name": "Cola 330ml can",
         *           "sku": "SD-100",
         *           "barcode": "5010000000000",
         *           "brand": "Fizz",
         *           "size": "330ml",
         *           "unitType": "item",
         *           "sellingPriceGross": "1.20",
         *           "sellingPriceNet": "1.00",
         *           "taxCategory": "STANDARD",
         *           "vatRate": {
         *             "id": "vat_cs_std",
         *             "code": "S",
         *             "name": "Standard rate",
         *             "percentage": "20.00"
         *           },
         *           "isActive": true,
         *           "variablePrice": false,
         *           "ageRestricted": false,
         *           "alcoholRestricted": false,
         *           "tobaccoRestricted": false,
         *           "vapeRestricted": false,
         *           "updatedAt": "2026-10-03T09:00:00.000Z"
         *         }
         *       ],
         *       "page": 1,
         *       "pageSize": 1,
         *       "total": 36,
         *       "totalPages": 36
         *     }
         */
        ProductPage: {
            rows: components["schemas"]["Product"][];
            /**
             * Format: int64
             * @description The page returned, from 1.
             */
            page: number;
            /**
             * Format: int32
             * @description Rows per page.
             */
            pageSize: number;
            /**
             * Format: int32
             * @description Rows matching the filters, on all pages.
             */
            total: number;
            /**
             * Format: int32
             * @description ceil(total / pageSize), at least 1.
             */
            totalPages: number;
        };
        /**
         * @description A product that left your view: delete it from your copy.
         * @example {
         *       "id": "prd_camden_001",
         *       "storeId": "sto_camden",
         *       "removedAt": "2026-11-02T09:15:00.000Z"
         *     }
         */
        ProductRemoval: {
            /** @description The product id. */
            id: string;
            /** @description The store it left (where it was when it left your view). */
            storeId: string;
            /**
             * Format: date-time
             * @description When it left the view (UTC, milliseconds).
             */
            removedAt: string;
        };
        /**
         * @example {
         *       "rows": [
         *         {
         *           "id": "prd_camden_001",
         *           "storeId": "sto_camden",
         *           "removedAt": "2026-11-02T09:15:00.000Z"
         *         }
         *       ],
         *       "page": 1,
         *       "pageSize": 1,
         *       "total": 1,
         *       "totalPages": 1
         *     }
         */
        ProductRemovalPage: {
            rows: components["schemas"]["ProductRemoval"][];
            /**
             * Format: int64
             * @description The page returned, from 1.
             */
            page: number;
            /**
             * Format: int32
             * @description Rows per page.
             */
            pageSize: number;
            /**
             * Format: int32
             * @description Rows matching the filters, on all pages.
             */
            total: number;
            /**
             * Format: int32
             * @description ceil(total / pageSize), at least 1.
             */
            totalPages: number;
        };
        /**
         * @example {
         *       "id": "pro_camden_meal",
         *       "storeId": "sto_camden",
         *       "name": "3 soft drinks for 3.00",
         *       "type": "MULTI_BUY",
         *       "schedule": {
         *         "startsAt": "2026-10-01T00:00:00.000Z",
         *         "endsAt": null
         *       },
         *       "lifecycle": {
         *         "status": "ACTIVE"
         *       },
         *       "isActive": true,
         *       "eligibilityDescription": "Buy 3 or more from Soft Drinks",
         *       "discountDescription": "The qualifying items together for GBP 3.00",
         *       "updatedAt": "2026-10-01T12:00:00.000Z"
         *     }
         */
        Promotion: {
            id: string;
            storeId: string;
            /** @description Display name. */
            name: string;
            type: components["schemas"]["PromotionType"];
            schedule: components["schemas"]["PromotionSchedule"];
            lifecycle: components["schemas"]["PromotionLifecycle"];
            /** @description status is ACTIVE and the current time is inside [startsAt, endsAt]; independent of the query filters. */
            isActive: boolean;
            /** @description Who or what qualifies, in plain English. */
            eligibilityDescription: string;
            /** @description The discount, in plain English; amounts carry the currency code. */
            discountDescription: string;
            /** Format: date-time */
            updatedAt: string;
        };
        PromotionLifecycle: {
            /** @description PAUSED is returned only with activeOnly=false. */
            status: components["schemas"]["PromotionStatus"];
        };
        PromotionSchedule: {
            /**
             * Format: date-time
             * @description Start of the window, inclusive; null: open.
             */
            startsAt: string | null;
            /**
             * Format: date-time
             * @description End of the window, inclusive; null: open.
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
        RateLimitedDetails: {
            /**
             * Format: int32
             * @description Seconds to wait, as in the Retry-After header.
             */
            retryAfterSeconds: number;
        };
        /** @description 429 rate_limited. */
        RateLimitedError: {
            /**
             * @description Match on this, not on message. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            code: "rate_limited";
            /** @description Human-readable, not localized; the text may change. */
            message: string;
            details: components["schemas"]["RateLimitedDetails"];
            /** @description Same value as the X-Request-Id response header. */
            requestId: string;
        };
        ScopeDeniedDetails: {
            /** @description The scope the operation needs: one of catalog.products.read, catalog.categories.read, catalog.promotions.read, inventory.stock.read. */
            requiredScopes: string[];
        };
        /** @description 403 scope_denied. */
        ScopeDeniedError: {
            /**
             * @description Match on this, not on message. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            code: "scope_denied";
            /** @description Human-readable, not localized; the text may change. */
            message: string;
            details: components["schemas"]["ScopeDeniedDetails"];
            /** @description Same value as the X-Request-Id response header. */
            requestId: string;
        };
        /** @description 503 service_unavailable. */
        ServiceUnavailableError: {
            /**
             * @description Match on this, not on message. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            code: "service_unavailable";
            /** @description Human-readable, not localized; the text may change. */
            message: string;
            details: components["schemas"]["RateLimitedDetails"];
            /** @description Same value as the X-Request-Id response header. */
            requestId: string;
        };
        /**
         * @example {
         *       "rows": [
         *         {
         *           "productId": "prd_camden_001",
         *           "storeId": "sto_camden",
         *           "sku": "SD-100",
         *           "barcode": "5010000000000",
         *           "productName": "Cola 330ml can",
         *           "trackStock": true,
         *           "quantity": "53.000",
         *           "lowStockThreshold": "12.000",
         *           "reorderLevel": "12.000",
         *           "availability": "in_stock",
         *           "updatedAt": "2026-10-06T07:00:00.000Z"
         *         }
         *       ],
         *       "page": 1,
         *       "pageSize": 1,
         *       "total": 36,
         *       "totalPages": 36
         *     }
         */
        StockPage: {
            rows: components["schemas"]["StockRow"][];
            /**
             * Format: int64
             * @description The page returned, from 1.
             */
            page: number;
            /**
             * Format: int32
             * @description Rows per page.
             */
            pageSize: number;
            /**
             * Format: int32
             * @description Rows matching the filters, on all pages.
             */
            total: number;
            /**
             * Format: int32
             * @description ceil(total / pageSize), at least 1.
             */
            totalPages: number;
        };
        /**
         * @description A stock row that left your view (its product did): delete it from your copy.
         * @example {
         *       "productId": "prd_camden_001",
         *       "storeId": "sto_camden",
         *       "removedAt": "2026-11-02T09:15:00.000Z"
         *     }
         */
        StockRemoval: {
            /** @description The product id of the stock row. */
            productId: string;
            /** @description The store it left (where it was when it left your view). */
            storeId: string;
            /**
             * Format: date-time
             * @description When it left the view (UTC, milliseconds).
             */
            removedAt: string;
        };
        /**
         * @example {
         *       "rows": [
         *         {
         *           "productId": "prd_camden_001",
         *           "storeId": "sto_camden",
         *           "removedAt": "2026-11-02T09:15:00.000Z"
         *         }
         *       ],
         *       "page": 1,
         *       "pageSize": 1,
         *       "total": 1,
         *       "totalPages": 1
         *     }
         */
        StockRemovalPage: {
            rows: components["schemas"]["StockRemoval"][];
            /**
             * Format: int64
             * @description The page returned, from 1.
             */
            page: number;
            /**
             * Format: int32
             * @description Rows per page.
             */
            pageSize: number;
            /**
             * Format: int32
             * @description Rows matching the filters, on all pages.
             */
            total: number;
            /**
             * Format: int32
             * @description ceil(total / pageSize), at least 1.
             */
            totalPages: number;
        };
        /**
         * @example {
         *       "productId": "prd_camden_001",
         *       "storeId": "sto_camden",
         *       "sku": "SD-100",
         *       "barcode": "5010000000000",
         *       "productName": "Cola 330ml can",
         *       "trackStock": true,
         *       "quantity": "53.000",
         *       "lowStockThreshold": "12.000",
         *       "reorderLevel": "12.000",
         *       "availability": "in_stock",
         *       "updatedAt": "2026-10-06T07:00:00.000Z"
         *     }
         */
        StockRow: {
            productId: string;
            storeId: string;
            sku: string;
            barcode: string | null;
            productName: string;
            /** @description Whether stock is tracked at all; when false, availability is not_tracked. */
            trackStock: boolean;
            /** @description Current quantity, exact; may be negative. */
            quantity: string;
            /** @description Informational: mirrored from reorderLevel on every save; not used to compute availability. */
            lowStockThreshold: string;
            /** @description The threshold used for low_stock. */
            reorderLevel: string;
            /** @description not_tracked when trackStock is false; else out_of_stock when quantity <= 0, low_stock when 0 < quantity <= reorderLevel, in_stock above (exact decimal comparison). */
            availability: components["schemas"]["Availability"];
            /**
             * Format: date-time
             * @description The later of the product's and its stock level's update times.
             */
            updatedAt: string;
        };
        /**
         * @example {
         *       "id": "sto_brixton",
         *       "name": "Brixton Station Road"
         *     }
         */
        Store: {
            /** @description The id every other list gives as storeId and takes as its storeId filter. */
            id: string;
            name: string;
        };
        /**
         * @example {
         *       "rows": [
         *         {
         *           "id": "sto_brixton",
         *           "name": "Brixton Station Road"
         *         }
         *       ],
         *       "page": 1,
         *       "pageSize": 1,
         *       "total": 3,
         *       "totalPages": 3
         *     }
         */
        StorePage: {
            rows: components["schemas"]["Store"][];
            /**
             * Format: int64
             * @description The page returned, from 1.
             */
            page: number;
            /**
             * Format: int32
             * @description Rows per page.
             */
            pageSize: number;
            /**
             * Format: int32
             * @description Rows matching the filters, on all pages.
             */
            total: number;
            /**
             * Format: int32
             * @description ceil(total / pageSize), at least 1.
             */
            totalPages: number;
        };
        /** @enum {string} */
        TaxCategory: "STANDARD" | "ZERO_RATED" | "REDUCED" | "EXEMPT" | "OUT_OF_SCOPE" | "UNCLASSIFIED";
        /** @enum {string} */
        UnitType: "item" | "kg" | "g" | "litre" | "ml";
        ValidationFailedDetails: {
            /** @description One entry per failing parameter; empty when the request as a whole is malformed (the message says how). */
            errors: components["schemas"]["ParameterError"][];
        };
        /** @description 400 validation_failed. */
        ValidationFailedError: {
            /**
             * @description Match on this, not on message. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            code: "validation_failed";
            /** @description Human-readable, not localized; the text may change. */
            message: string;
            details: components["schemas"]["ValidationFailedDetails"];
            /** @description Same value as the X-Request-Id response header. */
            requestId: string;
        };
        /**
         * @description The VAT rate of a product; null when it has none.
         * @example {
         *       "id": "vat_cs_std",
         *       "code": "S",
         *       "name": "Standard rate",
         *       "percentage": "20.00"
         *     }
         */
        VatRate: {
            id: string;
            /** @description Short VAT rate code. */
            code: string;
            name: string;
            /** @description Percentage as a decimal string with 2 decimals. */
            percentage: string;
        } | null;
    };
    responses: {
        /** @description internal_error: an unexpected error; the body says nothing more. Report the requestId. */
        InternalError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Cache-Control": components["headers"]["Cache-Control"];
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
        /** @description internal_error: an unexpected error; the body says nothing more. Report the requestId. No body (HEAD). */
        InternalErrorHead: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Cache-Control": components["headers"]["Cache-Control"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description not_found: what the request names (a product, or the store of storeId) does not exist, or is another tenant's or outside the key's stores: one answer for every cause. Each operation says what it looks up. */
        NotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Cache-Control": components["headers"]["Cache-Control"];
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
        /** @description not_found: what the request names (a product, or the store of storeId) does not exist, or is another tenant's or outside the key's stores: one answer for every cause. Each operation says what it looks up. No body (HEAD). */
        NotFoundHead: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Cache-Control": components["headers"]["Cache-Control"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description payload_too_large: the request carried a body larger than the limit (operations take no body). */
        PayloadTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Cache-Control": components["headers"]["Cache-Control"];
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
        /** @description payload_too_large: the request carried a body larger than the limit (operations take no body). No body (HEAD). */
        PayloadTooLargeHead: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Cache-Control": components["headers"]["Cache-Control"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description rate_limited: the budget is spent, or this client asks for more than its share of the capacity. Wait Retry-After seconds (also in details.retryAfterSeconds), then retry with backoff. */
        RateLimited: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "Retry-After": components["headers"]["Retry-After"];
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
        /** @description rate_limited: the budget is spent, or this client asks for more than its share of the capacity. Wait Retry-After seconds (also in details.retryAfterSeconds), then retry with backoff. No body (HEAD). */
        RateLimitedHead: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description scope_denied: the key is valid but its client lacks the scope of this operation (details.requiredScopes). */
        ScopeDenied: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Cache-Control": components["headers"]["Cache-Control"];
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
                 *             "inventory.stock.read"
                 *           ]
                 *         },
                 *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description scope_denied: the key is valid but its client lacks the scope of this operation (details.requiredScopes). No body (HEAD). */
        ScopeDeniedHead: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Cache-Control": components["headers"]["Cache-Control"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description service_unavailable: the service is over capacity (this client is within its share); nothing was done. Wait Retry-After seconds (also in details.retryAfterSeconds), then retry with backoff. */
        ServiceUnavailable: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "service_unavailable",
                 *         "message": "The service is over capacity. Retry after the number of seconds in Retry-After.",
                 *         "details": {
                 *           "retryAfterSeconds": 1
                 *         },
                 *         "requestId": "req_8GmKz2QpLr5TnW1xYb7cDf3h"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description service_unavailable: the service is over capacity (this client is within its share); nothing was done. Wait Retry-After seconds (also in details.retryAfterSeconds), then retry with backoff. No body (HEAD). */
        ServiceUnavailableHead: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description unauthorized: the key is missing, malformed, unknown, expired or revoked, of the other environment, or its client is disabled or revoked. One message for every cause. */
        Unauthorized: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
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
        /** @description unauthorized: the key is missing, malformed, unknown, expired or revoked, of the other environment, or its client is disabled or revoked. One message for every cause. No body (HEAD). */
        UnauthorizedHead: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description validation_failed: a parameter is invalid, unknown, repeated or empty. details.errors lists every failing parameter. */
        ValidationFailed: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Cache-Control": components["headers"]["Cache-Control"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "validation_failed",
                 *         "message": "Invalid parameters: storeID, pageSize.",
                 *         "details": {
                 *           "errors": [
                 *             {
                 *               "in": "query",
                 *               "name": "storeID",
                 *               "message": "is not a parameter of this operation"
                 *             },
                 *             {
                 *               "in": "query",
                 *               "name": "pageSize",
                 *               "message": "must be a whole number from 1 to 100"
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
        /** @description validation_failed: a parameter is invalid, unknown, repeated or empty. details.errors lists every failing parameter. No body (HEAD). */
        ValidationFailedHead: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Cache-Control": components["headers"]["Cache-Control"];
                [name: string]: unknown;
            };
            content?: never;
        };
    };
    parameters: {
        /** @description Optional id of this request, echoed in the response when it matches ^[A-Za-z0-9_.:-]{1,80}$ and does not look like an API key; otherwise (or when absent) the service uses a generated one starting with req_. */
        "X-Request-Id": string;
        /** @description Only ACTIVE promotions whose window contains this instant (startsAt <= activeAt <= endsAt; a null bound is open). Overrides activeOnly. */
        activeAt: string;
        /** @description Exact, case-sensitive barcode. */
        barcode: string;
        /** @description Where a walk continues: take it from the `Link` header's `rel="next"` URL, which repeats every other parameter of the request (a cursor is refused with other parameters, with `page`, by another API client, or altered). Pages by cursor are read after the last id of the previous page, at the cost of the first page whatever the depth; the body's `page` is the page number the cursor stands for. */
        cursor: string;
        /** @description Product id. */
        id: string;
        /** @description true: only rows whose availability is low_stock. false filters nothing. */
        lowStockOnly: boolean;
        /** @description Page number, from 1; 1 when absent. A page past the last one is a 200 with no rows and the true total. To walk a whole list, follow the `Link` header's `rel="next"` cursors instead: their cost does not grow with the depth, and they miss no row. */
        page: number;
        /** @description Rows per page, 1 to 100. */
        pageSize: number;
        /** @description Only the direct children of this category. Exact, case-sensitive. */
        parentCategoryId: string;
        /** @description Only this product. */
        productId: string;
        /** @description Free-text search: split on white space into at most 10 terms; a product matches when every term is a case-insensitive substring of its name, sku, barcode or brand. %, _ and \ are literal characters. */
        q: string;
        /** @description Exact, case-sensitive SKU. */
        sku: string;
        /** @description sortOrder (default): by sortOrder, then lower-case name, then id. name: by lower-case name, then id. Names compare in byte order. */
        sortBy: "sortOrder" | "name";
        /** @description Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found. */
        storeId: string;
        /** @description Exact promotion type. Types outside the customer-facing list (PERCENT_OFF, AMOUNT_OFF, FIXED_PRICE, MULTI_BUY, BUY_X_GET_Y, BUNDLE, SPEND_AND_SAVE) give an empty array. */
        type: string;
    };
    requestBodies: never;
    headers: {
        /** @description Always no-store. */
        "Cache-Control": "no-store";
        /** @description The coding of the body when it is compressed: br, gzip (and zstd where the server has it), chosen from your Accept-Encoding with its q-values; absent for bodies under 1 KiB, without Accept-Encoding, or when no coding you accept is available. HTTP clients decompress it for you. */
        "Content-Encoding": "br" | "gzip" | "zstd";
        /** @description RFC 8288 links, relative to this server: `rel="next"` (while a next page exists) and `rel="first"`. The next URL repeats the request's parameters and adds a `cursor`; following it walks the whole list in id order at the cost of the first page, whatever the depth. */
        Link: string;
        /** @description What is left of that budget: r requests, and t seconds until the current fixed window ends and the budget is whole again (while over the budget: until the block ends, as Retry-After). */
        RateLimit: string;
        /** @description The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): "per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode these numbers. */
        "RateLimit-Policy": string;
        /** @description Whole seconds to wait, at least 1. */
        "Retry-After": number;
        /** @description On a walk that can keep a copy in sync (activeOnly=false and no filter but storeId, begun without `page`): the position to store and send back as `changedSince` in the next round. The same on every page of one walk; taken when the walk began. Absent on other requests. */
        "Sync-Position": string;
        /** @description Accept-Encoding: the body depends on it (unless the deployment turned compression off). */
        Vary: string;
        /** @description Always Bearer. */
        "WWW-Authenticate": "Bearer";
        /** @description The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem. */
        "X-Request-Id": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listCategories: {
        parameters: {
            query?: {
                /** @description Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found. */
                storeId?: components["parameters"]["storeId"];
                /** @description Only the direct children of this category. Exact, case-sensitive. */
                parentCategoryId?: components["parameters"]["parentCategoryId"];
                /** @description true: only active categories; false: inactive ones too. Archived categories are never returned. */
                activeOnly?: boolean;
                /** @description sortOrder (default): by sortOrder, then lower-case name, then id. name: by lower-case name, then id. Names compare in byte order. */
                sortBy?: components["parameters"]["sortBy"];
            };
            header?: {
                /** @description Optional id of this request, echoed in the response when it matches ^[A-Za-z0-9_.:-]{1,80}$ and does not look like an API key; otherwise (or when absent) the service uses a generated one starting with req_. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The categories, in the order of sortBy. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Content-Encoding": components["headers"]["Content-Encoding"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Category"][];
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ScopeDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listCategoriesHead: {
        parameters: {
            query?: {
                /** @description Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found. */
                storeId?: components["parameters"]["storeId"];
                /** @description Only the direct children of this category. Exact, case-sensitive. */
                parentCategoryId?: components["parameters"]["parentCategoryId"];
                /** @description true: only active categories; false: inactive ones too. Archived categories are never returned. */
                activeOnly?: boolean;
                /** @description sortOrder (default): by sortOrder, then lower-case name, then id. name: by lower-case name, then id. Names compare in byte order. */
                sortBy?: components["parameters"]["sortBy"];
            };
            header?: {
                /** @description Optional id of this request, echoed in the response when it matches ^[A-Za-z0-9_.:-]{1,80}$ and does not look like an API key; otherwise (or when absent) the service uses a generated one starting with req_. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The categories, in the order of sortBy. No body (HEAD). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Content-Encoding": components["headers"]["Content-Encoding"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationFailedHead"];
            401: components["responses"]["UnauthorizedHead"];
            403: components["responses"]["ScopeDeniedHead"];
            404: components["responses"]["NotFoundHead"];
            413: components["responses"]["PayloadTooLargeHead"];
            429: components["responses"]["RateLimitedHead"];
            500: components["responses"]["InternalErrorHead"];
            503: components["responses"]["ServiceUnavailableHead"];
        };
    };
    listProductRemovals: {
        parameters: {
            query: {
                /** @description Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found. */
                storeId?: components["parameters"]["storeId"];
                /** @description Rows per page, 1 to 100. */
                pageSize?: components["parameters"]["pageSize"];
                /** @description Where a walk continues: take it from the `Link` header's `rel="next"` URL, which repeats every other parameter of the request (a cursor is refused with other parameters, with `page`, by another API client, or altered). Pages by cursor are read after the last id of the previous page, at the cost of the first page whatever the depth; the body's `page` is the page number the cursor stands for. */
                cursor?: components["parameters"]["cursor"];
                /** @description Required. The sync position your copy holds: the one the round's changes walk started from (the same `changedSince`). Lists every row that left your view since. Run it after the changes walk of the round, then keep the changes walk's new `Sync-Position` (this walk's `Sync-Position` repeats the one given). */
                changedSince: string;
            };
            header?: {
                /** @description Optional id of this request, echoed in the response when it matches ^[A-Za-z0-9_.:-]{1,80}$ and does not look like an API key; otherwise (or when absent) the service uses a generated one starting with req_. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of removed products. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Content-Encoding": components["headers"]["Content-Encoding"];
                    Vary: components["headers"]["Vary"];
                    Link: components["headers"]["Link"];
                    "Sync-Position": components["headers"]["Sync-Position"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductRemovalPage"];
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ScopeDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listProductRemovalsHead: {
        parameters: {
            query: {
                /** @description Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found. */
                storeId?: components["parameters"]["storeId"];
                /** @description Rows per page, 1 to 100. */
                pageSize?: components["parameters"]["pageSize"];
                /** @description Where a walk continues: take it from the `Link` header's `rel="next"` URL, which repeats every other parameter of the request (a cursor is refused with other parameters, with `page`, by another API client, or altered). Pages by cursor are read after the last id of the previous page, at the cost of the first page whatever the depth; the body's `page` is the page number the cursor stands for. */
                cursor?: components["parameters"]["cursor"];
                /** @description Required. The sync position your copy holds: the one the round's changes walk started from (the same `changedSince`). Lists every row that left your view since. Run it after the changes walk of the round, then keep the changes walk's new `Sync-Position` (this walk's `Sync-Position` repeats the one given). */
                changedSince: string;
            };
            header?: {
                /** @description Optional id of this request, echoed in the response when it matches ^[A-Za-z0-9_.:-]{1,80}$ and does not look like an API key; otherwise (or when absent) the service uses a generated one starting with req_. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of removed products. No body (HEAD). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Content-Encoding": components["headers"]["Content-Encoding"];
                    Vary: components["headers"]["Vary"];
                    Link: components["headers"]["Link"];
                    "Sync-Position": components["headers"]["Sync-Position"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationFailedHead"];
            401: components["responses"]["UnauthorizedHead"];
            403: components["responses"]["ScopeDeniedHead"];
            404: components["responses"]["NotFoundHead"];
            413: components["responses"]["PayloadTooLargeHead"];
            429: components["responses"]["RateLimitedHead"];
            500: components["responses"]["InternalErrorHead"];
            503: components["responses"]["ServiceUnavailableHead"];
        };
    };
    listProducts: {
        parameters: {
            query?: {
                /** @description Page number, from 1; 1 when absent. A page past the last one is a 200 with no rows and the true total. To walk a whole list, follow the `Link` header's `rel="next"` cursors instead: their cost does not grow with the depth, and they miss no row. */
                page?: components["parameters"]["page"];
                /** @description Rows per page, 1 to 100. */
                pageSize?: components["parameters"]["pageSize"];
                /** @description Where a walk continues: take it from the `Link` header's `rel="next"` URL, which repeats every other parameter of the request (a cursor is refused with other parameters, with `page`, by another API client, or altered). Pages by cursor are read after the last id of the previous page, at the cost of the first page whatever the depth; the body's `page` is the page number the cursor stands for. */
                cursor?: components["parameters"]["cursor"];
                /** @description Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found. */
                storeId?: components["parameters"]["storeId"];
                /** @description Only products whose own category is this one (not its subcategories'). Exact, case-sensitive. */
                categoryId?: string;
                /** @description Free-text search: split on white space into at most 10 terms; a product matches when every term is a case-insensitive substring of its name, sku, barcode or brand. %, _ and \ are literal characters. */
                q?: components["parameters"]["q"];
                /** @description Exact, case-sensitive barcode. */
                barcode?: components["parameters"]["barcode"];
                /** @description Exact, case-sensitive SKU. */
                sku?: components["parameters"]["sku"];
                /** @description Only products with updatedAt at or after this instant (RFC 3339 with Z or an offset). To keep a copy in sync, use changedSince instead: timestamps written by other systems or by transactions that commit late can fall behind the largest updatedAt already seen. */
                updatedSince?: string;
                /** @description true: only active products; false: inactive ones too. Exactly true or false. */
                activeOnly?: boolean;
                /** @description A sync position (the `Sync-Position` header of an earlier walk): only products whose public data changed since, inactive ones included. Needs activeOnly=false; combines only with storeId, pageSize and cursor. Follow the `Link` next cursors to the end, then walk /v1/catalog/product-removals from the same position (what left your view), then store this walk's new Sync-Position. */
                changedSince?: string;
            };
            header?: {
                /** @description Optional id of this request, echoed in the response when it matches ^[A-Za-z0-9_.:-]{1,80}$ and does not look like an API key; otherwise (or when absent) the service uses a generated one starting with req_. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of products. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Content-Encoding": components["headers"]["Content-Encoding"];
                    Vary: components["headers"]["Vary"];
                    Link: components["headers"]["Link"];
                    "Sync-Position": components["headers"]["Sync-Position"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductPage"];
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ScopeDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listProductsHead: {
        parameters: {
            query?: {
                /** @description Page number, from 1; 1 when absent. A page past the last one is a 200 with no rows and the true total. To walk a whole list, follow the `Link` header's `rel="next"` cursors instead: their cost does not grow with the depth, and they miss no row. */
                page?: components["parameters"]["page"];
                /** @description Rows per page, 1 to 100. */
                pageSize?: components["parameters"]["pageSize"];
                /** @description Where a walk continues: take it from the `Link` header's `rel="next"` URL, which repeats every other parameter of the request (a cursor is refused with other parameters, with `page`, by another API client, or altered). Pages by cursor are read after the last id of the previous page, at the cost of the first page whatever the depth; the body's `page` is the page number the cursor stands for. */
                cursor?: components["parameters"]["cursor"];
                /** @description Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found. */
                storeId?: components["parameters"]["storeId"];
                /** @description Only products whose own category is this one (not its subcategories'). Exact, case-sensitive. */
                categoryId?: string;
                /** @description Free-text search: split on white space into at most 10 terms; a product matches when every term is a case-insensitive substring of its name, sku, barcode or brand. %, _ and \ are literal characters. */
                q?: components["parameters"]["q"];
                /** @description Exact, case-sensitive barcode. */
                barcode?: components["parameters"]["barcode"];
                /** @description Exact, case-sensitive SKU. */
                sku?: components["parameters"]["sku"];
                /** @description Only products with updatedAt at or after this instant (RFC 3339 with Z or an offset). To keep a copy in sync, use changedSince instead: timestamps written by other systems or by transactions that commit late can fall behind the largest updatedAt already seen. */
                updatedSince?: string;
                /** @description true: only active products; false: inactive ones too. Exactly true or false. */
                activeOnly?: boolean;
                /** @description A sync position (the `Sync-Position` header of an earlier walk): only products whose public data changed since, inactive ones included. Needs activeOnly=false; combines only with storeId, pageSize and cursor. Follow the `Link` next cursors to the end, then walk /v1/catalog/product-removals from the same position (what left your view), then store this walk's new Sync-Position. */
                changedSince?: string;
            };
            header?: {
                /** @description Optional id of this request, echoed in the response when it matches ^[A-Za-z0-9_.:-]{1,80}$ and does not look like an API key; otherwise (or when absent) the service uses a generated one starting with req_. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of products. No body (HEAD). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Content-Encoding": components["headers"]["Content-Encoding"];
                    Vary: components["headers"]["Vary"];
                    Link: components["headers"]["Link"];
                    "Sync-Position": components["headers"]["Sync-Position"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationFailedHead"];
            401: components["responses"]["UnauthorizedHead"];
            403: components["responses"]["ScopeDeniedHead"];
            404: components["responses"]["NotFoundHead"];
            413: components["responses"]["PayloadTooLargeHead"];
            429: components["responses"]["RateLimitedHead"];
            500: components["responses"]["InternalErrorHead"];
            503: components["responses"]["ServiceUnavailableHead"];
        };
    };
    getProduct: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional id of this request, echoed in the response when it matches ^[A-Za-z0-9_.:-]{1,80}$ and does not look like an API key; otherwise (or when absent) the service uses a generated one starting with req_. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description Product id. */
                id: components["parameters"]["id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The product. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Content-Encoding": components["headers"]["Content-Encoding"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ScopeDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getProductHead: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional id of this request, echoed in the response when it matches ^[A-Za-z0-9_.:-]{1,80}$ and does not look like an API key; otherwise (or when absent) the service uses a generated one starting with req_. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path: {
                /** @description Product id. */
                id: components["parameters"]["id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The product. No body (HEAD). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Content-Encoding": components["headers"]["Content-Encoding"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationFailedHead"];
            401: components["responses"]["UnauthorizedHead"];
            403: components["responses"]["ScopeDeniedHead"];
            404: components["responses"]["NotFoundHead"];
            413: components["responses"]["PayloadTooLargeHead"];
            429: components["responses"]["RateLimitedHead"];
            500: components["responses"]["InternalErrorHead"];
            503: components["responses"]["ServiceUnavailableHead"];
        };
    };
    listPromotions: {
        parameters: {
            query?: {
                /** @description Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found. */
                storeId?: components["parameters"]["storeId"];
                /** @description Only ACTIVE promotions whose window contains this instant (startsAt <= activeAt <= endsAt; a null bound is open). Overrides activeOnly. */
                activeAt?: components["parameters"]["activeAt"];
                /** @description Exact promotion type. Types outside the customer-facing list (PERCENT_OFF, AMOUNT_OFF, FIXED_PRICE, MULTI_BUY, BUY_X_GET_Y, BUNDLE, SPEND_AND_SAVE) give an empty array. */
                type?: components["parameters"]["type"];
                /** @description true: only ACTIVE promotions whose window contains the current time. false: ACTIVE and PAUSED promotions, whatever their window. */
                activeOnly?: boolean;
            };
            header?: {
                /** @description Optional id of this request, echoed in the response when it matches ^[A-Za-z0-9_.:-]{1,80}$ and does not look like an API key; otherwise (or when absent) the service uses a generated one starting with req_. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The promotions. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Content-Encoding": components["headers"]["Content-Encoding"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Promotion"][];
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ScopeDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listPromotionsHead: {
        parameters: {
            query?: {
                /** @description Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found. */
                storeId?: components["parameters"]["storeId"];
                /** @description Only ACTIVE promotions whose window contains this instant (startsAt <= activeAt <= endsAt; a null bound is open). Overrides activeOnly. */
                activeAt?: components["parameters"]["activeAt"];
                /** @description Exact promotion type. Types outside the customer-facing list (PERCENT_OFF, AMOUNT_OFF, FIXED_PRICE, MULTI_BUY, BUY_X_GET_Y, BUNDLE, SPEND_AND_SAVE) give an empty array. */
                type?: components["parameters"]["type"];
                /** @description true: only ACTIVE promotions whose window contains the current time. false: ACTIVE and PAUSED promotions, whatever their window. */
                activeOnly?: boolean;
            };
            header?: {
                /** @description Optional id of this request, echoed in the response when it matches ^[A-Za-z0-9_.:-]{1,80}$ and does not look like an API key; otherwise (or when absent) the service uses a generated one starting with req_. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The promotions. No body (HEAD). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Content-Encoding": components["headers"]["Content-Encoding"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationFailedHead"];
            401: components["responses"]["UnauthorizedHead"];
            403: components["responses"]["ScopeDeniedHead"];
            404: components["responses"]["NotFoundHead"];
            413: components["responses"]["PayloadTooLargeHead"];
            429: components["responses"]["RateLimitedHead"];
            500: components["responses"]["InternalErrorHead"];
            503: components["responses"]["ServiceUnavailableHead"];
        };
    };
    listStores: {
        parameters: {
            query?: {
                /** @description Page number, from 1; 1 when absent. A page past the last one is a 200 with no rows and the true total. To walk a whole list, follow the `Link` header's `rel="next"` cursors instead: their cost does not grow with the depth, and they miss no row. */
                page?: components["parameters"]["page"];
                /** @description Rows per page, 1 to 100. */
                pageSize?: components["parameters"]["pageSize"];
                /** @description Where a walk continues: take it from the `Link` header's `rel="next"` URL, which repeats every other parameter of the request (a cursor is refused with other parameters, with `page`, by another API client, or altered). Pages by cursor are read after the last id of the previous page, at the cost of the first page whatever the depth; the body's `page` is the page number the cursor stands for. */
                cursor?: components["parameters"]["cursor"];
                /** @description Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found. */
                storeId?: components["parameters"]["storeId"];
            };
            header?: {
                /** @description Optional id of this request, echoed in the response when it matches ^[A-Za-z0-9_.:-]{1,80}$ and does not look like an API key; otherwise (or when absent) the service uses a generated one starting with req_. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of stores. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Content-Encoding": components["headers"]["Content-Encoding"];
                    Vary: components["headers"]["Vary"];
                    Link: components["headers"]["Link"];
                    "Sync-Position": components["headers"]["Sync-Position"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StorePage"];
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ScopeDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listStoresHead: {
        parameters: {
            query?: {
                /** @description Page number, from 1; 1 when absent. A page past the last one is a 200 with no rows and the true total. To walk a whole list, follow the `Link` header's `rel="next"` cursors instead: their cost does not grow with the depth, and they miss no row. */
                page?: components["parameters"]["page"];
                /** @description Rows per page, 1 to 100. */
                pageSize?: components["parameters"]["pageSize"];
                /** @description Where a walk continues: take it from the `Link` header's `rel="next"` URL, which repeats every other parameter of the request (a cursor is refused with other parameters, with `page`, by another API client, or altered). Pages by cursor are read after the last id of the previous page, at the cost of the first page whatever the depth; the body's `page` is the page number the cursor stands for. */
                cursor?: components["parameters"]["cursor"];
                /** @description Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found. */
                storeId?: components["parameters"]["storeId"];
            };
            header?: {
                /** @description Optional id of this request, echoed in the response when it matches ^[A-Za-z0-9_.:-]{1,80}$ and does not look like an API key; otherwise (or when absent) the service uses a generated one starting with req_. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of stores. No body (HEAD). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Content-Encoding": components["headers"]["Content-Encoding"];
                    Vary: components["headers"]["Vary"];
                    Link: components["headers"]["Link"];
                    "Sync-Position": components["headers"]["Sync-Position"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationFailedHead"];
            401: components["responses"]["UnauthorizedHead"];
            403: components["responses"]["ScopeDeniedHead"];
            404: components["responses"]["NotFoundHead"];
            413: components["responses"]["PayloadTooLargeHead"];
            429: components["responses"]["RateLimitedHead"];
            500: components["responses"]["InternalErrorHead"];
            503: components["responses"]["ServiceUnavailableHead"];
        };
    };
    listStock: {
        parameters: {
            query?: {
                /** @description Page number, from 1; 1 when absent. A page past the last one is a 200 with no rows and the true total. To walk a whole list, follow the `Link` header's `rel="next"` cursors instead: their cost does not grow with the depth, and they miss no row. */
                page?: components["parameters"]["page"];
                /** @description Rows per page, 1 to 100. */
                pageSize?: components["parameters"]["pageSize"];
                /** @description Where a walk continues: take it from the `Link` header's `rel="next"` URL, which repeats every other parameter of the request (a cursor is refused with other parameters, with `page`, by another API client, or altered). Pages by cursor are read after the last id of the previous page, at the cost of the first page whatever the depth; the body's `page` is the page number the cursor stands for. */
                cursor?: components["parameters"]["cursor"];
                /** @description Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found. */
                storeId?: components["parameters"]["storeId"];
                /** @description Only this product. */
                productId?: components["parameters"]["productId"];
                /** @description Exact, case-sensitive SKU. */
                sku?: components["parameters"]["sku"];
                /** @description Exact, case-sensitive barcode. */
                barcode?: components["parameters"]["barcode"];
                /** @description Only products whose own category is this one (not its subcategories'). */
                categoryId?: string;
                /** @description Only rows with updatedAt at or after this instant (a row's updatedAt is the later of the product's and its stock level's update times). To keep a copy in sync, use changedSince instead: timestamps written by other systems or by transactions that commit late can fall behind the largest updatedAt already seen. */
                updatedSince?: string;
                /** @description true: only rows whose availability is low_stock. false filters nothing. */
                lowStockOnly?: components["parameters"]["lowStockOnly"];
                /** @description true: only active products; false: inactive ones too. */
                activeOnly?: boolean;
                /** @description A sync position (the `Sync-Position` header of an earlier walk): only rows whose product or stock level changed since, inactive products included. Needs activeOnly=false; combines only with storeId, pageSize and cursor. Follow the `Link` next cursors to the end, then walk /v1/inventory/stock-removals from the same position (what left your view), then store this walk's new Sync-Position. */
                changedSince?: string;
            };
            header?: {
                /** @description Optional id of this request, echoed in the response when it matches ^[A-Za-z0-9_.:-]{1,80}$ and does not look like an API key; otherwise (or when absent) the service uses a generated one starting with req_. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of stock rows. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Content-Encoding": components["headers"]["Content-Encoding"];
                    Vary: components["headers"]["Vary"];
                    Link: components["headers"]["Link"];
                    "Sync-Position": components["headers"]["Sync-Position"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StockPage"];
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ScopeDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listStockHead: {
        parameters: {
            query?: {
                /** @description Page number, from 1; 1 when absent. A page past the last one is a 200 with no rows and the true total. To walk a whole list, follow the `Link` header's `rel="next"` cursors instead: their cost does not grow with the depth, and they miss no row. */
                page?: components["parameters"]["page"];
                /** @description Rows per page, 1 to 100. */
                pageSize?: components["parameters"]["pageSize"];
                /** @description Where a walk continues: take it from the `Link` header's `rel="next"` URL, which repeats every other parameter of the request (a cursor is refused with other parameters, with `page`, by another API client, or altered). Pages by cursor are read after the last id of the previous page, at the cost of the first page whatever the depth; the body's `page` is the page number the cursor stands for. */
                cursor?: components["parameters"]["cursor"];
                /** @description Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found. */
                storeId?: components["parameters"]["storeId"];
                /** @description Only this product. */
                productId?: components["parameters"]["productId"];
                /** @description Exact, case-sensitive SKU. */
                sku?: components["parameters"]["sku"];
                /** @description Exact, case-sensitive barcode. */
                barcode?: components["parameters"]["barcode"];
                /** @description Only products whose own category is this one (not its subcategories'). */
                categoryId?: string;
                /** @description Only rows with updatedAt at or after this instant (a row's updatedAt is the later of the product's and its stock level's update times). To keep a copy in sync, use changedSince instead: timestamps written by other systems or by transactions that commit late can fall behind the largest updatedAt already seen. */
                updatedSince?: string;
                /** @description true: only rows whose availability is low_stock. false filters nothing. */
                lowStockOnly?: components["parameters"]["lowStockOnly"];
                /** @description true: only active products; false: inactive ones too. */
                activeOnly?: boolean;
                /** @description A sync position (the `Sync-Position` header of an earlier walk): only rows whose product or stock level changed since, inactive products included. Needs activeOnly=false; combines only with storeId, pageSize and cursor. Follow the `Link` next cursors to the end, then walk /v1/inventory/stock-removals from the same position (what left your view), then store this walk's new Sync-Position. */
                changedSince?: string;
            };
            header?: {
                /** @description Optional id of this request, echoed in the response when it matches ^[A-Za-z0-9_.:-]{1,80}$ and does not look like an API key; otherwise (or when absent) the service uses a generated one starting with req_. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of stock rows. No body (HEAD). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Content-Encoding": components["headers"]["Content-Encoding"];
                    Vary: components["headers"]["Vary"];
                    Link: components["headers"]["Link"];
                    "Sync-Position": components["headers"]["Sync-Position"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationFailedHead"];
            401: components["responses"]["UnauthorizedHead"];
            403: components["responses"]["ScopeDeniedHead"];
            404: components["responses"]["NotFoundHead"];
            413: components["responses"]["PayloadTooLargeHead"];
            429: components["responses"]["RateLimitedHead"];
            500: components["responses"]["InternalErrorHead"];
            503: components["responses"]["ServiceUnavailableHead"];
        };
    };
    listStockRemovals: {
        parameters: {
            query: {
                /** @description Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found. */
                storeId?: components["parameters"]["storeId"];
                /** @description Rows per page, 1 to 100. */
                pageSize?: components["parameters"]["pageSize"];
                /** @description Where a walk continues: take it from the `Link` header's `rel="next"` URL, which repeats every other parameter of the request (a cursor is refused with other parameters, with `page`, by another API client, or altered). Pages by cursor are read after the last id of the previous page, at the cost of the first page whatever the depth; the body's `page` is the page number the cursor stands for. */
                cursor?: components["parameters"]["cursor"];
                /** @description Required. The sync position your copy holds: the one the round's changes walk started from (the same `changedSince`). Lists every row that left your view since. Run it after the changes walk of the round, then keep the changes walk's new `Sync-Position` (this walk's `Sync-Position` repeats the one given). */
                changedSince: string;
            };
            header?: {
                /** @description Optional id of this request, echoed in the response when it matches ^[A-Za-z0-9_.:-]{1,80}$ and does not look like an API key; otherwise (or when absent) the service uses a generated one starting with req_. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of removed stock rows. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Content-Encoding": components["headers"]["Content-Encoding"];
                    Vary: components["headers"]["Vary"];
                    Link: components["headers"]["Link"];
                    "Sync-Position": components["headers"]["Sync-Position"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StockRemovalPage"];
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ScopeDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listStockRemovalsHead: {
        parameters: {
            query: {
                /** @description Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found. */
                storeId?: components["parameters"]["storeId"];
                /** @description Rows per page, 1 to 100. */
                pageSize?: components["parameters"]["pageSize"];
                /** @description Where a walk continues: take it from the `Link` header's `rel="next"` URL, which repeats every other parameter of the request (a cursor is refused with other parameters, with `page`, by another API client, or altered). Pages by cursor are read after the last id of the previous page, at the cost of the first page whatever the depth; the body's `page` is the page number the cursor stands for. */
                cursor?: components["parameters"]["cursor"];
                /** @description Required. The sync position your copy holds: the one the round's changes walk started from (the same `changedSince`). Lists every row that left your view since. Run it after the changes walk of the round, then keep the changes walk's new `Sync-Position` (this walk's `Sync-Position` repeats the one given). */
                changedSince: string;
            };
            header?: {
                /** @description Optional id of this request, echoed in the response when it matches ^[A-Za-z0-9_.:-]{1,80}$ and does not look like an API key; otherwise (or when absent) the service uses a generated one starting with req_. */
                "X-Request-Id"?: components["parameters"]["X-Request-Id"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of removed stock rows. No body (HEAD). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Content-Encoding": components["headers"]["Content-Encoding"];
                    Vary: components["headers"]["Vary"];
                    Link: components["headers"]["Link"];
                    "Sync-Position": components["headers"]["Sync-Position"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationFailedHead"];
            401: components["responses"]["UnauthorizedHead"];
            403: components["responses"]["ScopeDeniedHead"];
            404: components["responses"]["NotFoundHead"];
            413: components["responses"]["PayloadTooLargeHead"];
            429: components["responses"]["RateLimitedHead"];
            500: components["responses"]["InternalErrorHead"];
            503: components["responses"]["ServiceUnavailableHead"];
        };
    };
}
