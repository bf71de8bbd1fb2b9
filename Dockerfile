# Catalog and Inventory Read API: production image.
# The same commands as CI and the tests: npm ci, npm run build, node dist/main.js.

FROM node:26-trixie-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
RUN npm run build

FROM node:26-trixie-slim AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:26-trixie-slim
# A deployed image is production unless told otherwise: it accepts only ck_live_ keys. Development
# (ck_test_ keys) is chosen explicitly, by docker-compose.yml and the development overlay.
ENV NODE_ENV=production \
    APP_ENV=production \
    PORT=3000
WORKDIR /app
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY fixtures ./fixtures
# The image's unprivileged "node" user (uid 1000); nothing is written to the file system at run time,
# so the root file system can be mounted read-only.
USER 1000:1000
EXPOSE 3000
STOPSIGNAL SIGTERM
# node is PID 1 and handles SIGTERM itself (readiness fails, in-flight requests finish, exit 0).
CMD ["node", "dist/main.js"]
