{include file="_head.tpl"}

<p class="center"><a href="./" class="btn sm" aria-label="Go Back">&larr; Back</a></p>
<iframe src="about:blank" name="f" width="100%" height="400" frameborder="0"></iframe>

<form method="post" action="" target="f">
	<input type="hidden" name="update" value="1" />
</form>

<script type="text/javascript">
document.forms[0].submit();
</script>

{include file="_foot.tpl"}