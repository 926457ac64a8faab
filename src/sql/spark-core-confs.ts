/**
 * The Spark core settings (not SQL settings) that SQL's SET refuses with CANNOT_MODIFY_CONFIG:
 * PySpark 4.3.0's registered ConfigEntry keys outside SQLConf, each checked to fail `SET key=1`
 * there (spark.master, spark.app.name and spark.default.parallelism are not among them: SET
 * accepts those). Grouped by their first two dot-separated parts; "." stands for the group's
 * own key (`spark.archives`).
 */
const GROUPS: Readonly<Record<string, string>> = {
  "spark.acls": "enable",
  "spark.admin": "acls acls.groups",
  "spark.api": "mode",
  "spark.app": "attempt.id",
  "spark.appStateStore": "asyncTracking.enable",
  "spark.archives": ".",
  "spark.authenticate": ". enableSaslEncryption secret secret.driver.file secret.executor.file secret.file secretBitLength",
  "spark.barrier": "sync.timeout",
  "spark.block": "failures.beforeLocationRefresh",
  "spark.blockManager": "port",
  "spark.broadcast": "UDFCompressionThreshold blockSize checksum compress",
  "spark.buffer": "pageSize size write.chunkSize",
  "spark.checkpoint": "compress dir local.verifyChecksum.enabled local.verifyChecksum.forceSerialized",
  "spark.cleaner":
    "periodicGC.interval referenceTracking referenceTracking.blocking referenceTracking.blocking.shuffle referenceTracking.blocking.timeout referenceTracking.cleanCheckpoints",
  "spark.connect": "scalaUdf.stubPrefixes",
  "spark.cores": "max",
  "spark.decommission": "enabled",
  "spark.diskStore": "subDirectories",
  "spark.driver":
    "bindAddress blockManager.port cores defaultExtraClassPath extraClassPath extraJavaOptions extraLibraryPath host limitActiveProcessorCount.enabled log.allowErasureCoding log.dfsDir log.layout log.localDir log.persistToDfs.enabled log.redirectConsoleOutputs maxResultSize memory memoryOverhead memoryOverheadFactor metrics.pollingInterval minMemoryOverhead port resourcesFile supervise timeout userClassPathFirst",
  "spark.dynamicAllocation":
    "cachedExecutorIdleTimeout enabled executorAllocationRatio executorIdleTimeout initialExecutors maxExecutors minExecutors schedulerBacklogTimeout shuffleTracking.enabled shuffleTracking.timeout sustainedSchedulerBacklogTimeout testing",
  "spark.eventLog":
    "buffer.kb compress compression.codec dir enabled erasureCoding.enabled excludedPatterns gcMetrics.oldGenerationGarbageCollectors gcMetrics.youngGenerationGarbageCollectors includeTaskMetricsAccumulators logBlockUpdates.enabled logStageExecutorMetrics longForm.enabled overwrite rolling.enabled rolling.maxFileSize testing",
  "spark.excludeOnFailure":
    "application.enabled application.fetchFailure.enabled application.maxFailedExecutorsPerNode application.maxFailedTasksPerExecutor enabled killExcludedExecutors killExcludedExecutors.decommission stage.maxFailedExecutorsPerNode stage.maxFailedTasksPerExecutor task.maxTaskAttemptsPerExecutor task.maxTaskAttemptsPerNode taskAndStage.enabled timeout",
  "spark.executor":
    "allowSparkContext cores decommission.forceKillTimeout decommission.killInterval decommission.signal defaultExtraClassPath extraClassPath extraJavaOptions extraLibraryPath failuresValidityInterval heartbeat.dropZeroAccumulatorUpdates heartbeat.maxFailures heartbeatInterval id instances isolatedSessionCache.size killOnFatalError.depth limitActiveProcessorCount.enabled logs.redirectConsoleOutputs logs.rolling.enableCompression logs.rolling.maxRetainedFiles logs.rolling.maxSize logs.rolling.strategy logs.rolling.time.interval maxNumFailures memory memoryOverhead memoryOverheadFactor metrics.fileSystemSchemes metrics.pollingInterval minMemoryOverhead processTreeMetrics.enabled pyspark.memory python.worker.log.details syncLogLevel.enabled userClassPathFirst",
  "spark.extraListeners": ".",
  "spark.file": "transferTo",
  "spark.files": ". fetchFailure.unRegisterOutputOnHost ignoreCorruptFiles ignoreMissingFiles maxPartitionBytes openCostInBytes",
  "spark.hadoopRDD": "ignoreEmptySplits",
  "spark.history":
    "custom.executor.log.url custom.executor.log.url.applyIncompleteApplication fs.cleaner.enabled fs.cleaner.interval fs.cleaner.maxAge fs.cleaner.maxNum fs.driverlog.cleaner.enabled fs.driverlog.cleaner.interval fs.driverlog.cleaner.maxAge fs.endEventReparseChunkSize fs.eventLog.maxLineLength fs.eventLog.onDemandLoadEnabled fs.eventLog.rolling.compaction.score.threshold fs.eventLog.rolling.maxFilesToRetain fs.eventLog.rolling.onDemandLoadEnabled fs.inProgressOptimization.enabled fs.logDirectory fs.logDirectory.names fs.numCompactThreads fs.numReplayThreads fs.safemodeCheck.interval fs.update.batchSize fs.update.interval fs.update.scanDisabledPathPatterns kerberos.enabled kerberos.keytab kerberos.principal provider retainedApplications store.hybridStore.diskBackend store.hybridStore.enabled store.hybridStore.maxMemoryUsage store.maxDiskUsage store.path store.serializer ui.acls.enable ui.admin.acls ui.admin.acls.groups ui.maxApplications ui.port ui.title",
  "spark.io":
    "compression.codec compression.lz4.blockSize compression.lzf.parallel.enabled compression.snappy.blockSize compression.zstd.bufferPool.enabled compression.zstd.bufferSize compression.zstd.level compression.zstd.strategy compression.zstd.workers crypto.cipher.transformation encryption.enabled encryption.keySizeBits encryption.keygen.algorithm warning.largeFileThreshold",
  "spark.jars": ". excludes ivy ivySettings packages repositories",
  "spark.kerberos": "access.hadoopFileSystems keytab principal relogin.period renewal.credentials",
  "spark.kryo": "classesToRegister pool referenceTracking registrationRequired registrator unsafe",
  "spark.kryoserializer": "buffer buffer.max",
  "spark.kubernetes": "jars.avoidDownloadSchemes",
  "spark.locality": "wait wait.legacyResetOnTaskLaunch wait.node wait.process wait.rack",
  "spark.log": "callerContext legacyTaskNameMdc.enabled level structuredLogging.enabled",
  "spark.master":
    "rest.allowedAppResourcePatterns rest.enabled rest.filters rest.host rest.maxRequestBodySize rest.maxThreads rest.port rest.virtualThread.enabled ui.decommission.allow.mode ui.historyServerUrl ui.port ui.title ui.visibleEnvVarPrefixes useAppNameAsAppId.enabled useDriverIdAsAppName.enabled",
  "spark.memory": "fraction offHeap.enabled offHeap.size storageFraction unmanagedMemoryPollingInterval",
  "spark.metrics": "appStatusSource.enabled conf executorMetricsSource.enabled namespace staticSources.enabled",
  "spark.modify": "acls acls.groups",
  "spark.network":
    "crypto.enabled crypto.saslFallback maxRemoteBlockSizeFetchToMem recreateWorkerGroupOnDeadEventLoop remoteReadNioBufferConversion timeout timeoutInterval",
  "spark.plugins": ".",
  "spark.pyspark": "driver.python python",
  "spark.python":
    "authenticate.socketTimeout daemon.killWorkerOnFlushFailure daemon.module factory.idleWorkerMaxPoolSize task.killTimeout udf.pipelined.enabled udf.pipelined.queueDepth unix.domain.socket.dir unix.domain.socket.enabled use.daemon worker.faulthandler.enabled worker.idleTimeoutSeconds worker.killOnIdleTimeout worker.module worker.reuse worker.tracebackDumpIntervalSeconds",
  "spark.rdd":
    "cache.visibilityTracking.enabled checkpoint.cachePreferredLocsExpireTime compress limit.initialNumPartitions limit.scaleUpFactor parallelListingThreshold",
  "spark.redaction": "regex string.regex",
  "spark.reducer": "maxBlocksInFlightPerAddress maxReqsInFlight maxSizeInFlight",
  "spark.resources": "discoveryPlugin warnings.testing",
  "spark.rpc": "askTimeout connect.threads io.numConnectionsPerPeer io.threads lookupTimeout message.maxSize netty.dispatcher.numThreads",
  "spark.scheduler":
    "allocation.file barrier.maxConcurrentTasksCheck.interval barrier.maxConcurrentTasksCheck.maxFailures dropTaskInfoAccumulablesOnTaskCompletion.enabled excludeOnFailure.unschedulableTaskSetTimeout executorTaskExcludeOnFailureTime listenerbus.eventqueue.capacity listenerbus.exitTimeout listenerbus.logSlowEvent listenerbus.logSlowEvent.threshold listenerbus.metrics.maxListenerClassesTimed maxRegisteredResourcesWaitingTime maxRetainedRemovedDecommissionExecutors maxRetainedUnknownDecommissionExecutors minRegisteredResourcesRatio mode numCancelledJobGroupsToTrack pipelinedGroup.slotCheck.enabled resource.profileMergeConflicts revive.interval stage.legacyAbortAfterKillTasks streaming.idAwareLogging.enabled streaming.idAwareLogging.queryIdLength",
  "spark.security": "credentials.renewalRatio credentials.retryWait directCredentialProviders.enabled",
  "spark.serializer": ". extraDebugInfo objectStreamReset",
  "spark.shuffle":
    "accurateBlockSkewedFactor accurateBlockThreshold checksum.algorithm checksum.enabled compress detectCorrupt detectCorrupt.useExtraMemory file.buffer file.merge.buffer localDisk.file.output.buffer manager manager.incremental mapOutput.dispatcher.numThreads mapOutput.minSizeForBroadcast mapOutput.parallelAggregationThreshold mapStatus.compression.codec maxAccurateSkewedBlockNumber maxAttemptsOnNettyOOM minNumPartitionsToHighlyCompress push.enabled push.finalize.timeout push.maxBlockBatchSize push.maxBlockSizeToPush push.maxRetainedMergerLocations push.merge.finalizeThreads push.mergersMinStaticThreshold push.mergersMinThresholdRatio push.minCompletedPushRatio push.minShuffleSizeToWait push.numPushThreads push.results.timeout push.sendFinalizeRPCThreads readHostLocalDisk reduceLocality.enabled registration.maxAttempts registration.timeout service.db.backend service.db.enabled service.enabled service.fetch.rdd.enabled service.name service.port service.removeShuffle sort.bypassMergeThreshold sort.initialBufferSize sort.io.plugin.class sort.useRadixSort spill.batchSize spill.compress spill.diskWriteBufferSize spill.initialMemoryThreshold spill.maxSizeInBytesForSpillThreshold spill.numElementsForceSpillThreshold streaming.checksum.enabled streaming.networkBufferMaxWaitTimeMs streaming.networkBufferSize streaming.readerMaxMemory streaming.writerConnectionTimeout streaming.writerMaxMemory sync unsafe.fastMergeEnabled unsafe.file.output.buffer useOldFetchProtocol",
  "spark.shutdown": "timeout",
  "spark.speculation":
    ". efficiency.enabled efficiency.longRunTaskFactor efficiency.processRateMultiplier interval minTaskRuntime multiplier quantile task.duration.threshold",
  "spark.stage": "ignoreDecommissionFetchFailure maxAttempts maxConsecutiveAttempts",
  "spark.standalone": "executorRemoveDelayOnDisconnection submit.filterEnvironment submit.waitAppCompletion",
  "spark.storage":
    "blockManagerHeartbeatTimeoutMs blockManagerMasterDriverHeartbeatTimeoutMs blockManagerTimeoutIntervalMs cachedPeersTtl cleanupFilesAfterExecutorExit decommission.enabled decommission.fallbackStorage.cleanUp decommission.fallbackStorage.path decommission.maxReplicationFailuresPerBlock decommission.rddBlocks.enabled decommission.replicationReattemptInterval decommission.shuffleBlocks.bufferRacingMigrations decommission.shuffleBlocks.enabled decommission.shuffleBlocks.maxDiskSize decommission.shuffleBlocks.maxThreads exceptionOnPinLeak localDiskByExecutors.cacheSize maxReplicationFailures memoryMapLimitForTests memoryMapThreshold rddBlockChecksum.algorithm rddBlockChecksum.enabled rddBlockChecksum.verifyOnReplication replication.policy replication.proactive replication.topologyFile replication.topologyMapper shuffleManager.initWaitingTimeout unrollMemoryCheckPeriod unrollMemoryGrowthFactor unrollMemoryThreshold",
  "spark.submit": "callSystemExitOnMainExit deployMode proxyUser.allowCustomClasspathInClusterMode pyFiles",
  "spark.task": "cpus maxDirectResultSize maxFailures reaper.enabled reaper.killTimeout reaper.pollingInterval reaper.threadDump",
  "spark.taskMetrics": "trackUpdatedBlockStatuses",
  "spark.test": "noStageRetry",
  "spark.testing":
    ". dynamicAllocation.schedule.enabled injectShuffleFetchFailures injectShuffleFetchFailuresDownstreamDelay injectShuffleFetchFailuresResultStageDelay injectShuffleForceChecksumMismatchOnRecompute memory nCoresPerExecutor nExecutorsPerHost nHosts reservedMemory resourceProfileManager skipESSRegister skipValidateCores",
  "spark.ui":
    "actionsViaGetEnabled allowFramingFrom consoleProgress.update.interval contentSecurityPolicy.enabled contentSecurityPolicy.frameAncestors.enabled custom.executor.log.url dagGraph.retainedRootRDDs enabled filters groupSQLSubExecutionEnabled heapHistogramEnabled jetty.sniHostCheckEnabled jetty.stopTimeout killEnabled liveUpdate.minFlushPeriod liveUpdate.period port prometheus.enabled proxyRedirectUri requestHeaderSize retainedDeadExecutors retainedJobs retainedStages retainedTasks reverseProxy reverseProxyUrl showConsoleProgress showErrorStacks store.path strictTransportSecurity threadDump.flamegraphEnabled threadDumpsEnabled timeline.executors.maximum timeline.jobs.maximum timeline.stages.maximum timeline.tasks.maximum timelineEnabled view.acls view.acls.groups xContentTypeOptions.enabled xXssProtection",
  "spark.unsafe": "exceptionOnMemoryLeak sorter.spill.merge.factor sorter.spill.read.ahead.enabled sorter.spill.reader.buffer.size",
  "spark.user": "groups.mapping",
  "spark.worker": "executorStateSync.maxAttempts",
  "spark.yarn":
    "dist.forceDownloadSchemes dist.pyFiles isPython kerberos.renewal.excludeHadoopFileSystems shuffle.server.recovery.disabled stagingDir",
};

export const SPARK_CORE_CONFS: ReadonlySet<string> = new Set(
  Object.entries(GROUPS).flatMap(([group, rest]) => rest.split(" ").map((r) => (r === "." ? group : `${group}.${r}`))),
);
