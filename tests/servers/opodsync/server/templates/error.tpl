{include file="_head.tpl"}

<p class="error center">{$message}</p>

{include file="_foot.tpl"}