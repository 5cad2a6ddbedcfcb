# Contrail in one image: the live server, the nightly build and the upload (deploy/README.md
# "Containers"; deploy/compose.yaml runs the whole service). Debian 12 (glibc 2.36) with Node 20:
# the uWebSockets.js build Contrail pins loads there (README, Components).
FROM node:20-bookworm-slim

# MALLOC_MMAP_THRESHOLD_: glibc returns the serving threads' freed buffers to the system only with it (docs/operating.md, "Memory")
ENV NODE_ENV=production \
    MALLOC_MMAP_THRESHOLD_=131072 \
    CONTRAIL_HOST=0.0.0.0 \
    CONTRAIL_PORT=8080 \
    CONTRAIL_STATE=/var/lib/contrail/state \
    CONTRAIL_ARTIFACTS=/var/lib/contrail/artifacts \
    CONTRAIL_BUNDLES=/var/lib/contrail/bundles \
    CONTRAIL_LOG=/var/lib/contrail/flight-log

WORKDIR /opt/contrail

# dependencies first (a layer that changes only with the lock); no dev tools. only this
# platform's uWebSockets.js binary is kept (the package carries every platform's: ~90 MB)
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund \
 && keep="uws_$(node -p 'process.platform + "_" + process.arch + "_" + process.versions.modules').node" \
 && find node_modules/uWebSockets.js/binaries -name 'uws_*.node' ! -name "$keep" -delete \
 && npm cache clean --force

# the code and the shipped reference data (.dockerignore keeps tests, benches, var/ and node_modules out)
COPY tsconfig.json ./
COPY lib ./lib
COPY schemas ./schemas
COPY artifacts ./artifacts
COPY server ./server
COPY build ./build
COPY data ./data
COPY deploy/docker/entrypoint.sh ./deploy/docker/entrypoint.sh

# fail the build, not the first start, when the native binary does not load here
RUN deploy/docker/entrypoint.sh check \
 && mkdir -p /var/lib/contrail/state /var/lib/contrail/artifacts /var/lib/contrail/bundles /var/lib/contrail/flight-log \
 && chown -R node:node /var/lib/contrail

# the image's own unprivileged user (uid 1000); named volumes mounted under /var/lib/contrail take its ownership
USER node
EXPOSE 8080
ENTRYPOINT ["/opt/contrail/deploy/docker/entrypoint.sh"]
CMD ["serve"]
