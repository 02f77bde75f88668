"""A boto3 session against the local endpoint (run by test/foreign-clients/boto3-session.test.ts).

Each check prints one JSON line {"name", "ok", "detail"}; every check runs whatever the others did. The endpoint's
URL is the first argument, a scratch folder the second. boto3's own transfer manager does the multipart upload
(files over its 8 MiB threshold) and the ranged download, as `aws s3 cp` does.
"""
import hashlib
import json
import os
import sys
import time
import traceback

import boto3
from boto3.s3.transfer import TransferConfig
from botocore.config import Config
from botocore.exceptions import ClientError

ENDPOINT, WORK = sys.argv[1], sys.argv[2]
ACCOUNT = "123456789012"
session = boto3.session.Session(aws_access_key_id="local", aws_secret_access_key="local", region_name="us-east-1")
config = Config(retries={"max_attempts": 3, "mode": "standard"}, s3={"addressing_style": "path"})


def client(name):
    return session.client(name, endpoint_url=ENDPOINT, config=config)


def check(name):
    def run(fn):
        started = time.time()
        try:
            fn()
            print(json.dumps({"name": name, "ok": True, "ms": int((time.time() - started) * 1000)}), flush=True)
        except Exception as error:  # a failed check, reported with what was seen
            detail = "".join(traceback.format_exception_only(type(error), error)).strip()
            print(json.dumps({"name": name, "ok": False, "detail": detail[:2000]}), flush=True)
        return fn

    return run


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


s3, sts, s3tables, glue, cw, athena, iam = (
    client(n) for n in ("s3", "sts", "s3tables", "glue", "cloudwatch", "athena", "iam")
)
BUCKET = "boto3-lab-files"


@check("sts.get_caller_identity")
def _():
    expect(sts.get_caller_identity()["Account"] == ACCOUNT, "account")


@check("s3.create_bucket, head_bucket (region), list_buckets (CreationDate, Owner)")
def _():
    s3.create_bucket(Bucket=BUCKET)
    head = s3.head_bucket(Bucket=BUCKET)
    expect(head["ResponseMetadata"]["HTTPHeaders"].get("x-amz-bucket-region") == "us-east-1", str(head))
    listed = s3.list_buckets()
    mine = [b for b in listed["Buckets"] if b["Name"] == BUCKET]
    expect(mine and abs(mine[0]["CreationDate"].timestamp() - time.time()) < 600, str(mine))
    expect(listed.get("Owner", {}).get("ID"), str(listed.get("Owner")))


BIG = os.path.join(WORK, "big.bin")
with open(BIG, "wb") as f:
    f.write(os.urandom(20 * 1024 * 1024 + 7))


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


@check("s3.upload_file of 20 MiB (multipart, 8 MiB parts) and download_file (ranged GETs)")
def _():
    transfer = TransferConfig(multipart_threshold=8 * 1024 * 1024, multipart_chunksize=8 * 1024 * 1024)
    s3.upload_file(BIG, BUCKET, "data/big.bin", Config=transfer)
    expect(s3.head_object(Bucket=BUCKET, Key="data/big.bin")["ContentLength"] == os.path.getsize(BIG), "length")
    back = os.path.join(WORK, "back.bin")
    s3.download_file(BUCKET, "data/big.bin", back, Config=transfer)
    expect(digest(back) == digest(BIG), "the downloaded bytes differ from the uploaded file")


@check("s3 multipart by hand: create, upload_part x2, list_parts, list_multipart_uploads, complete")
def _():
    upload = s3.create_multipart_upload(Bucket=BUCKET, Key="hand/made.bin")["UploadId"]
    first, second = os.urandom(5 * 1024 * 1024), b"tail"
    etags = [
        s3.upload_part(Bucket=BUCKET, Key="hand/made.bin", UploadId=upload, PartNumber=n, Body=body)["ETag"]
        for n, body in ((1, first), (2, second))
    ]
    parts = s3.list_parts(Bucket=BUCKET, Key="hand/made.bin", UploadId=upload)["Parts"]
    expect([p["PartNumber"] for p in parts] == [1, 2] and [p["Size"] for p in parts] == [len(first), 4], str(parts))
    uploads = s3.list_multipart_uploads(Bucket=BUCKET).get("Uploads", [])
    expect(any(u["UploadId"] == upload for u in uploads), str(uploads))
    s3.complete_multipart_upload(
        Bucket=BUCKET,
        Key="hand/made.bin",
        UploadId=upload,
        MultipartUpload={"Parts": [{"PartNumber": n + 1, "ETag": e} for n, e in enumerate(etags)]},
    )
    body = s3.get_object(Bucket=BUCKET, Key="hand/made.bin")["Body"].read()
    expect(body == first + second, "assembled object")


@check("s3 abort_multipart_upload, then the upload is gone (NoSuchUpload)")
def _():
    upload = s3.create_multipart_upload(Bucket=BUCKET, Key="hand/aborted.bin")["UploadId"]
    s3.abort_multipart_upload(Bucket=BUCKET, Key="hand/aborted.bin", UploadId=upload)
    try:
        s3.list_parts(Bucket=BUCKET, Key="hand/aborted.bin", UploadId=upload)
        raise AssertionError("list_parts of an aborted upload succeeded")
    except ClientError as error:
        expect(error.response["Error"]["Code"] == "NoSuchUpload", str(error.response["Error"]))


@check("s3 bucket configurations: versioning, encryption, ownership, lifecycle put and read back")
def _():
    s3.put_bucket_versioning(Bucket=BUCKET, VersioningConfiguration={"Status": "Enabled"})
    expect(s3.get_bucket_versioning(Bucket=BUCKET)["Status"] == "Enabled", "versioning")
    rules = s3.get_bucket_encryption(Bucket=BUCKET)["ServerSideEncryptionConfiguration"]["Rules"]
    expect(rules[0]["ApplyServerSideEncryptionByDefault"]["SSEAlgorithm"] == "AES256", str(rules))
    owner = s3.get_bucket_ownership_controls(Bucket=BUCKET)["OwnershipControls"]["Rules"][0]["ObjectOwnership"]
    expect(owner == "BucketOwnerEnforced", owner)
    lifecycle = {"Rules": [{"ID": "expire", "Status": "Enabled", "Filter": {"Prefix": "tmp/"}, "Expiration": {"Days": 7}}]}
    s3.put_bucket_lifecycle_configuration(Bucket=BUCKET, LifecycleConfiguration=lifecycle)
    got = s3.get_bucket_lifecycle_configuration(Bucket=BUCKET)["Rules"]
    expect(got == lifecycle["Rules"], str(got))


@check("s3 error documents: NoSuchBucketPolicy, and the request id in the body is the header's")
def _():
    try:
        s3.get_bucket_policy(Bucket=BUCKET)
        raise AssertionError("a bucket without a policy returned one")
    except ClientError as error:
        expect(error.response["Error"]["Code"] == "NoSuchBucketPolicy", str(error.response["Error"]))
        headers = error.response["ResponseMetadata"]["HTTPHeaders"]
        expect(error.response["ResponseMetadata"]["RequestId"] == headers.get("x-amz-request-id"), str(headers))


@check("s3.list_objects_v2 paginator, delete_objects, delete_bucket")
def _():
    for n in range(5):
        s3.put_object(Bucket=BUCKET, Key=f"many/{n}", Body=b"x")
    pages = s3.get_paginator("list_objects_v2").paginate(Bucket=BUCKET, Prefix="many/", PaginationConfig={"PageSize": 2})
    keys = [o["Key"] for page in pages for o in page.get("Contents", [])]
    expect(keys == [f"many/{n}" for n in range(5)], str(keys))
    everything = [o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET).get("Contents", [])]
    s3.delete_objects(Bucket=BUCKET, Delete={"Objects": [{"Key": k} for k in everything]})
    s3.delete_bucket(Bucket=BUCKET)


@check("s3tables create_table without metadata; glue get_databases paginator by CatalogId")
def _():
    arn = s3tables.create_table_bucket(name="boto3-lab")["arn"]
    for ns in ("a", "b", "c"):
        s3tables.create_namespace(tableBucketARN=arn, namespace=[ns])
    s3tables.create_table(tableBucketARN=arn, namespace="a", name="later", format="ICEBERG")
    pages = glue.get_paginator("get_databases").paginate(
        CatalogId=f"{ACCOUNT}:s3tablescatalog/boto3-lab", PaginationConfig={"PageSize": 2}
    )
    names = [d["Name"] for page in pages for d in page["DatabaseList"]]
    expect(names == ["a", "b", "c"], str(names))


@check("cloudwatch put_metric_alarm with tags, list_tags_for_resource, describe_alarms")
def _():
    cw.put_metric_alarm(
        AlarmName="boto3-alarm",
        Namespace="Lab/Boto3",
        MetricName="Records",
        Statistic="Sum",
        Period=60,
        EvaluationPeriods=1,
        Threshold=1,
        ComparisonOperator="GreaterThanThreshold",
        Tags=[{"Key": "lab", "Value": "boto3"}],
    )
    tags = cw.list_tags_for_resource(ResourceARN=f"arn:aws:cloudwatch:us-east-1:{ACCOUNT}:alarm:boto3-alarm")["Tags"]
    expect(tags == [{"Key": "lab", "Value": "boto3"}], str(tags))
    alarms = cw.describe_alarms(AlarmNames=["boto3-alarm"])["MetricAlarms"]
    expect(len(alarms) == 1 and alarms[0]["StateValue"] == "INSUFFICIENT_DATA", str(alarms))


@check("athena workgroup: engine version and tags as given")
def _():
    athena.create_work_group(
        Name="boto3-lab",
        Configuration={"EngineVersion": {"SelectedEngineVersion": "Athena engine version 3"}},
        Tags=[{"Key": "lab", "Value": "boto3"}],
    )
    selected = athena.get_work_group(WorkGroup="boto3-lab")["WorkGroup"]["Configuration"]["EngineVersion"]
    expect(selected["SelectedEngineVersion"] == "Athena engine version 3", str(selected))
    tags = athena.list_tags_for_resource(ResourceARN=f"arn:aws:athena:us-east-1:{ACCOUNT}:workgroup/boto3-lab")
    expect(tags["Tags"] == [{"Key": "lab", "Value": "boto3"}], str(tags))


@check("iam.list_roles: an error naming IAM, not served locally, not retried")
def _():
    try:
        iam.list_roles()
        raise AssertionError("IAM answered")
    except ClientError as error:
        message = error.response["Error"]["Message"]
        expect("IAM" in message and "not served by the local endpoint" in message, message)
        expect(error.response["ResponseMetadata"].get("RetryAttempts", 0) == 0, str(error.response["ResponseMetadata"]))
